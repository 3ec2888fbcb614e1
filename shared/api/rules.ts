// Rule-language methods. Owned by the rules work (shared/rules/).
import { z } from 'zod';
import { readMethod, strict } from './contract.js';
import { Mode, Origin, RuleIssue, RuleWarning } from './common.js';
import { approvalRules } from './approval.js';

export const RulesCheckOutput = strict({ valid: z.boolean(), errors: z.array(RuleIssue), warnings: z.array(RuleWarning) });
export const RulesEvalOutput = strict({
  outcome: z.enum(['granted', 'parked', 'failed']),
  granted_by: z.enum(['mode', 'rule', 'origin']).nullable(),
  error: strict({ code: z.string(), detail: z.string() }).nullable(),
  /** The resolved tool name (after kernel aliases and runner routes). */
  tool: z.string(),
  /** The runner a `NAME__<12 hex>` callable targets, or null for a kernel tool. */
  runner: z.string().nullable().optional(),
  matched: z.array(z.number().int()),
});

export const rulesMethods = {
  // Any value: judging it is the method's answer (valid or not, with located errors), never an input error.
  rulesCheck: readMethod(
    strict({ rules: z.unknown(), mode: Mode.optional() }),
    RulesCheckOutput,
    'Validate and lint an approval_rules list (under `mode`, when given: under bypass an ask rule grants).',
  ),
  rulesEval: readMethod(
    strict({
      mode: Mode,
      rules: approvalRules('The approval rules are invalid').optional(),
      tool: z.string().min(1),
      input: z.unknown().optional(),
      origin: Origin.default('model'),
    }),
    RulesEvalOutput,
    'Evaluate one call against a mode and rule list, with no kernel.',
  ),
};
