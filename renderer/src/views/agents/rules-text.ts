// The rules editor's text handling, as pure functions: JSON syntax errors located by line and column,
// and the API's rule issues turned into sentences that name the rule and key.
import { validateRules, RULES_ENVELOPE_BYTES } from '../../../../shared/rules/index.js';
import { errorMessage } from '../../../../shared/errors.js';

export type ParsedRules = { ok: true; value: unknown } | { ok: false; message: string; line: number; column: number };

export function parseRulesText(text: string): ParsedRules {
  if (!text.trim()) return { ok: true, value: [] };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const msg = errorMessage(e);
    const pos = /position (\d+)/.exec(msg);
    const lc = /line (\d+) column (\d+)/.exec(msg);
    let line = 1;
    let column = 1;
    if (lc) {
      line = Number(lc[1]);
      column = Number(lc[2]);
    } else if (pos) {
      const before = text.slice(0, Number(pos[1]));
      line = before.split('\n').length;
      column = before.length - before.lastIndexOf('\n');
    } else {
      line = text.split('\n').length;
    }
    return { ok: false, message: msg.replace(/^JSON\.parse: /, ''), line, column };
  }
}

export interface RuleIssue {
  index: number | null;
  key?: string;
  message: string;
}
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** "rule 1 (the 2nd)": the index as the CLI and the API print it, and the position people count. Every
 *  place the editor names a rule (errors, warnings, the tester's matches) uses this one form. */
export const ruleName = (index: number): string => `rule ${index} (the ${ordinal(index + 1)})`;

/** "rule 1 (the 2nd), key "verdict": …". The API's messages may already start with "rule N:" (once or
 *  twice); that prefix is dropped so the rule is named once, in the form above. */
export function locateIssue(issue: RuleIssue): string {
  const message = issue.message.replace(/^(rule \d+:\s*)+/, '');
  const where = issue.index === null ? 'The list' : ruleName(issue.index);
  return `${where}${issue.key ? `, key "${issue.key}"` : ''}: ${message}`;
}

/** The tester's "which rules matched", in the same words as the errors. */
export function matchedLine(matched: readonly number[]): string {
  if (!matched.length) return 'no rule matched';
  return `matched ${matched.map(ruleName).join(', ')}`;
}

/** The line on which rule N starts in pretty-printed or hand-written JSON (best effort, for highlighting). */
export function ruleStartLine(text: string, index: number): number | null {
  let depth = 0;
  let count = -1;
  let inString = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (depth === 1 && c === '{') {
        count++;
        if (count === index) return line;
      }
      depth++;
    } else if (c === ']' || c === '}') depth--;
  }
  return null;
}

/**
 * A list over the 64 KiB envelope is judged here, by the same validator the kernel runs, instead of being sent:
 * a pasted list of a megabyte or more could exceed the doors' message bound, the connection dropped, and
 * the editor said only "Could not check the rules: the connection … dropped". Null when the list is small
 * enough to send to rulesCheck (which also lints).
 */
export function oversizeIssues(value: unknown): RuleIssue[] | null {
  let bytes = 0;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(value) ?? '').length;
  } catch {
    return null;
  }
  if (bytes <= RULES_ENVELOPE_BYTES) return null;
  const r = validateRules(value);
  return r.ok ? null : r.errors;
}
