// The rule-language methods of the API: pure, no kernel. Both validate with the same code the kernel uses
// at declaration (shared/rules), so what `rulesCheck` accepts is exactly what an agent or a run may declare.
import { compileRules, EMPTY_RULES, evaluateCall, validateRules } from '../../shared/rules/index.js';
import { checkReport, evalReport } from '../../shared/rules/reports.js';
import type { Handlers } from './dispatch.js';

export const rulesHandlers: Pick<Handlers, 'rulesCheck' | 'rulesEval'> = {
  rulesCheck: ({ rules, mode }) => checkReport(validateRules(rules), mode),

  // `rules` passed the schema, which validated them with the same validateRules (invalid: `invalid_rules`).
  rulesEval: ({ mode, rules, tool, input, origin }) =>
    evalReport(evaluateCall(rules === undefined ? EMPTY_RULES : compileRules(rules), mode, { tool, input: input ?? {}, origin })),
};
