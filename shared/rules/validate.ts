// Validation of an approval_rules list at declaration (seed 000: "The list is validated at declaration — a
// seventh key, a missing tool, a verdict outside the three, an origin outside the three, a match without a path,
// an empty path segment, a glob that does not compile — under the 64 KiB envelope bound and with no length
// limits"). Every error is collected, each in words a person can act on. Pure, never throws.
//
// "Does not compile", decided here (every byte string is a glob in this language, so these are the only ways):
//   - tool: an empty alternative (`bash||read`, `|bash`, `bash|`, or "" itself): it could name only a tool with
//     no name, which is always a mistake (a stray `|`);
//   - tool or match: a lone UTF-16 surrogate: the pattern has no UTF-8 form, and the glob is over UTF-8 bytes.
// The envelope is the list as compact JSON (JSON.stringify) in UTF-8 bytes: at most 65,536. How a file is
// indented does not count against it. No field has any other length limit.
import type { ApprovalRule } from '../types.js';
import { VERDICTS, ORIGINS } from '../types.js';
import { hasLoneSurrogate, utf8Length } from './utf8.js';

export const RULES_ENVELOPE_BYTES = 65536;
export const RULE_KEYS = ['tool', 'verdict', 'path', 'match', 'reason', 'origin'] as const;

export interface RuleError {
  /** The rule's position in the list, or null for the list as a whole. */
  index: number | null;
  key?: string;
  message: string;
}
export type ValidationResult = { ok: true; rules: ApprovalRule[] } | { ok: false; errors: RuleError[] };

/** A short, safe rendering of a value a person typed, for "(got …)". */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const s = JSON.stringify(value);
      return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
    }
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    default:
      return `a ${typeof value}`;
  }
}

const list = (words: readonly string[], and = 'or') => `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}`;

/** Edit distance (optimal string alignment: a swap of neighbours is one edit). Small inputs only. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 4;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

function closest(word: string, choices: readonly string[]): string | null {
  if (word.length > 40) return null;
  const lower = word.toLowerCase();
  for (const c of choices) if (c === lower) return c;
  for (const c of choices) if (editDistance(lower, c) <= 2) return c;
  return null;
}

/** The compile errors of a tool pattern, as sentences (empty: it compiles). */
export function toolPatternProblems(tool: string): string[] {
  if (tool === '') return ['tool must name at least one tool (it is empty)'];
  const problems: string[] = [];
  const alts = tool.split('|');
  const empty = alts.flatMap((alt, i) => (alt === '' ? [i + 1] : []));
  if (empty.length === 1) problems.push(`tool ${describe(tool)} has an empty alternative (alternative ${empty[0]} of ${alts.length}): remove the stray "|"`);
  else if (empty.length > 1)
    problems.push(`tool ${describe(tool)} has empty alternatives (${list(empty.map(String), 'and')} of ${alts.length}): remove the stray "|"s`);
  if (hasLoneSurrogate(tool)) problems.push('tool contains a lone UTF-16 surrogate, which has no UTF-8 form: it cannot be a glob');
  return problems;
}

function checkRule(raw: unknown, index: number, errors: RuleError[]): ApprovalRule | null {
  const at = `rule ${index}`;
  const fail = (key: string | undefined, message: string) =>
    errors.push(key === undefined ? { index, message: `${at}: ${message}` } : { index, key, message: `${at}: ${message}` });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fail(undefined, `must be an object like {"tool": "bash", "verdict": "ask"} (got ${describe(raw)})`);
    return null;
  }
  const r = raw as Record<string, unknown>;
  const before = errors.length;
  for (const key of Object.keys(r)) {
    if ((RULE_KEYS as readonly string[]).includes(key)) continue;
    const near = closest(key, RULE_KEYS);
    fail(key, `unknown key ${describe(key)}${near ? ` (did you mean "${near}"?)` : ''}: a rule has at most the keys ${list(RULE_KEYS, 'and')}`);
  }
  // A key holding `undefined` is absent: that is what it is once serialized.
  const has = (k: string) => Object.hasOwn(r, k) && r[k] !== undefined;
  const str = (k: string): string | undefined => {
    if (!has(k)) return undefined;
    if (typeof r[k] === 'string') return r[k] as string;
    fail(k, `${k} must be a string (got ${describe(r[k])})`);
    return undefined;
  };

  const tool = str('tool');
  if (!has('tool')) fail('tool', 'tool is required: the |-separated tool names the rule addresses, e.g. "bash" or "write|edit"');
  else if (tool !== undefined) for (const p of toolPatternProblems(tool)) fail('tool', p);

  const verdict = str('verdict');
  if (!has('verdict')) fail('verdict', `verdict is required: ${list(VERDICTS)}`);
  else if (verdict !== undefined && !(VERDICTS as readonly string[]).includes(verdict))
    fail('verdict', `verdict must be ${list(VERDICTS)} (got ${describe(verdict)})`);

  const path = str('path');
  if (path !== undefined) {
    if (path === '') fail('path', 'path must not be empty: a dotted key path into the tool input, e.g. "command" or "edits.0.path"');
    else {
      const segs = path.split('.');
      const empty = segs.findIndex((s) => s === '');
      if (empty >= 0)
        fail('path', `path ${describe(path)} has an empty segment (segment ${empty + 1}): write keys separated by single dots, e.g. "edits.0.path"`);
    }
  }

  const match = str('match');
  if (has('match') && !has('path')) fail('match', 'match needs a path: say which text of the tool input it reads, e.g. "path": "command"');
  if (match !== undefined && hasLoneSurrogate(match)) fail('match', 'match contains a lone UTF-16 surrogate, which has no UTF-8 form: it cannot be a glob');

  const reason = str('reason');
  const origin = str('origin');
  if (origin !== undefined && !(ORIGINS as readonly string[]).includes(origin)) fail('origin', `origin must be ${list(ORIGINS)} (got ${describe(origin)})`);

  if (errors.length > before) return null;
  const rule: ApprovalRule = { tool: tool!, verdict: verdict as ApprovalRule['verdict'] };
  if (path !== undefined) rule.path = path;
  if (match !== undefined) rule.match = match;
  if (reason !== undefined) rule.reason = reason;
  if (origin !== undefined) rule.origin = origin as ApprovalRule['origin'];
  return rule;
}

/** Validates a parsed approval_rules value. On success, returns clean copies holding only the six keys. */
export function validateRules(value: unknown): ValidationResult {
  try {
    return check(value);
  } catch {
    // Only exotic in-process values (a throwing getter, a revoked proxy) land here: refuse, never throw.
    return { ok: false, errors: [{ index: null, message: 'approval rules could not be read as plain JSON' }] };
  }
}

function check(value: unknown): ValidationResult {
  const errors: RuleError[] = [];
  if (!Array.isArray(value)) {
    return { ok: false, errors: [{ index: null, message: `approval rules must be a JSON array of rule objects (got ${describe(value)})` }] };
  }
  let size = -1;
  try {
    const json = JSON.stringify(value);
    size = typeof json === 'string' ? utf8Length(json) : -1;
  } catch {
    errors.push({ index: null, message: 'approval rules must be plain JSON (this value cannot be serialized: a cycle or a non-JSON value)' });
  }
  if (size > RULES_ENVELOPE_BYTES)
    errors.push({
      index: null,
      message: `approval rules are ${size} bytes as JSON; the limit is ${RULES_ENVELOPE_BYTES} bytes (64 KiB): split or shorten the list`,
    });
  const rules: ApprovalRule[] = [];
  for (let i = 0; i < value.length; i++) {
    const rule = checkRule(Object.hasOwn(value, i) ? value[i] : undefined, i, errors);
    if (rule) rules.push(rule);
  }
  return errors.length ? { ok: false, errors } : { ok: true, rules };
}
