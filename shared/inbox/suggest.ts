// "Allow calls like this from now on": an allow rule built from a card, a person edits before saving it to
// the agent's profile. Pure: no I/O.
import type { ApprovalRule } from '../types.js';
import { SHELL_TOOLS } from '../rules/lint.js';
import { textAtPath } from '../rules/path.js';
import { compileRules } from '../rules/compile.js';
import { evaluateCall } from '../rules/evaluate.js';

const PATH_KEYS = ['path', 'file_path'];
/** A word that reads as a subcommand (`git status`, `npm test`), not an argument or a flag. */
const SUBCOMMAND = /^[a-z][a-z0-9:_-]{0,30}$/;

/** The rule a card suggests: the tool, and a glob over the command's first words or the path's folder. */
export function suggestRule(tool: string, input: unknown): ApprovalRule {
  const o = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (SHELL_TOOLS.includes(tool) && typeof o.command === 'string') {
    const ws = o.command.trim().split(/\s+/);
    const head = [ws[0]];
    if (ws[1] && SUBCOMMAND.test(ws[1])) head.push(ws[1]);
    // Exactly the command when there is nothing after its first words; else those words and any arguments.
    const match = head.length === ws.length ? head.join(' ') : `${head.join(' ')} *`;
    return { tool, path: 'command', match, verdict: 'allow' };
  }
  const key = PATH_KEYS.find((k) => typeof o[k] === 'string');
  if (key) {
    const p = o[key] as string;
    const cut = p.lastIndexOf('/');
    return { tool, path: key, match: cut > 0 ? `${p.slice(0, cut)}/*` : '*', verdict: 'allow' };
  }
  return { tool, verdict: 'allow' };
}

export interface CardCall {
  id: string;
  tool: string;
  input: unknown;
}

/** Which of these calls a rule alone would allow (the rule tester beside the suggestion). */
export function callsAllowedBy(rule: ApprovalRule, calls: readonly CardCall[]): string[] {
  let compiled;
  try {
    compiled = compileRules([rule]);
  } catch {
    return [];
  }
  return calls.filter((c) => evaluateCall(compiled, 'rules', { tool: c.tool, input: c.input, origin: 'model' }).outcome === 'granted').map((c) => c.id);
}

/** The text a rule's match reads in a call, for showing beside the glob. */
export const matchedText = (rule: ApprovalRule, input: unknown): string | null => (rule.path ? textAtPath(input, rule.path) : null);
