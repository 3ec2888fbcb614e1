// The rule-language methods of the API: pure, no kernel. Both validate with the same code the kernel uses
// at declaration (shared/rules), so what `rulesCheck` accepts is exactly what an agent or a run may declare.
import { compileRules, EMPTY_RULES, evaluateCall, validateRules } from '../../shared/rules/index.js';
import { checkReport, evalReport } from '../../shared/rules/reports.js';
import { ApiFailure, type Handlers } from './dispatch.js';

export const rulesHandlers: Pick<Handlers, 'rulesCheck' | 'rulesEval'> = {
  rulesCheck: ({ rules }) => checkReport(validateRules(rules)),

  rulesEval: ({ mode, rules, tool, input, origin }) => {
    let compiled = EMPTY_RULES;
    if (rules !== undefined) {
      const v = validateRules(rules);
      if (!v.ok) throw new ApiFailure('invalid_rules', `The approval rules are invalid: ${v.errors.map((e) => e.message).join('; ')}`, { errors: v.errors });
      compiled = compileRules(v.rules);
    }
    return evalReport(evaluateCall(compiled, mode, { tool, input: input ?? {}, origin }));
  },
};
