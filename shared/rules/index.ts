// The rule language (seed 000, "The rule grammar"; DESIGN §2 "The approval stage"). Pure: no I/O anywhere here.
export { validateRules, RULES_ENVELOPE_BYTES, RULE_KEYS, type RuleError, type ValidationResult } from './validate.js';
export { compileRules, EMPTY_RULES, RulesInvalidError, REASON_MAX_BYTES, type CompiledRules, type CompiledRule } from './compile.js';
export { evaluateCall, evaluateResolved, type Call, type Evaluation, type ResolvedCall } from './evaluate.js';
export { resolveToolName, resolveInput, KERNEL_ALIASES, type ResolvedTool, type AliasEntry } from './tool-names.js';
export { lintRules, DEFAULT_KNOWN_TOOLS, SHELL_TOOLS, type RuleWarning } from './lint.js';
export { textAtPath, textOf, walkPath } from './path.js';
export { globMatch, compileGlob, matchGlob, type CompiledGlob } from './glob.js';
export { cutUtf8 } from './utf8.js';
export { escapeOf } from './escape.js';
