// The rule-language methods of the API: pure, no kernel. Both validate with the same code the kernel uses
// at declaration (shared/rules), so what `rulesCheck` accepts is exactly what an agent or a run may declare.
import { compileRules, EMPTY_RULES, evaluateCall, lintRules, validateRules } from '../../shared/rules/index.js';
import { ApiFailure, type Handlers } from './dispatch.js';

export const rulesHandlers: Pick<Handlers, 'rulesCheck' | 'rulesEval'> = {
  rulesCheck: ({ rules }) => {
    const v = validateRules(rules);
    if (!v.ok) return { valid: false, errors: v.errors, warnings: [] };
    return { valid: true, errors: [], warnings: lintRules(v.rules) };
  },

  rulesEval: ({ mode, rules, tool, input, origin }) => {
    let compiled = EMPTY_RULES;
    if (rules !== undefined) {
      const v = validateRules(rules);
      if (!v.ok) throw new ApiFailure('invalid_rules', `The approval rules are invalid: ${v.errors.map((e) => e.message).join('; ')}`, { errors: v.errors });
      compiled = compileRules(v.rules);
    }
    const d = evaluateCall(compiled, mode, { tool, input: input ?? {}, origin });
    return {
      outcome: d.outcome,
      granted_by: d.outcome === 'granted' ? d.granted_by : null,
      error: d.outcome === 'failed' ? d.error : null,
      tool: d.tool,
      runner: d.runner,
      matched: d.matched,
    };
  },
};
