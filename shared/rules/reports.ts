// What `rules check` and `rules eval` report (shared/api/rules.ts RulesCheckOutput, RulesEvalOutput): built
// here once, so the API method and the `nexus rules` command give the same answer. Pure.
import type { Evaluation } from './evaluate.js';
import type { Mode } from '../types.js';
import { DEFAULT_KNOWN_TOOLS, lintRules, type RuleWarning } from './lint.js';
import type { RuleError, ValidationResult } from './validate.js';

export interface CheckReport {
  valid: boolean;
  errors: RuleError[];
  warnings: RuleWarning[];
}

/** Valid rules carry their lint warnings (under `mode`, when given); invalid ones their errors (and no warnings). */
export function checkReport(v: ValidationResult, mode?: Mode): CheckReport {
  return v.ok ? { valid: true, errors: [], warnings: lintRules(v.rules, DEFAULT_KNOWN_TOOLS, mode) } : { valid: false, errors: v.errors, warnings: [] };
}

/** One evaluated call as the API and the CLI's --json show it. */
export function evalReport(d: Evaluation) {
  return {
    outcome: d.outcome,
    granted_by: d.outcome === 'granted' ? d.granted_by : null,
    error: d.outcome === 'failed' ? d.error : null,
    tool: d.tool,
    runner: d.runner,
    matched: d.matched,
  };
}
