// "Allow calls like this from now on": the rules a card suggests, which a person edits before saving them to
// the agent's profile. A suggestion never grants a compound command: a shell command is allowed exactly, or
// by a prefix glob that comes with the compound-command guards, ask rules over the same command text for
// shell control text (`;`, `&`, `|`, `$(`, a backtick, `>`, `<`, a newline). Ask wins over allow (seed 000:
// deny, then ask, then allow), so `npm test && rm -rf ~` parks under an allow of `npm test *` without any
// shell parsing. Pure: no I/O.
import type { ApprovalRule, Mode } from '../types.js';
import { SHELL_TOOLS } from './lint.js';
import { textAtPath } from './path.js';
import { compileRules } from './compile.js';
import { evaluateCall } from './evaluate.js';

const PATH_KEYS = ['path', 'file_path'];
/** A word that reads as a subcommand (`git status`, `npm test`), not an argument or a flag. */
const SUBCOMMAND = /^[a-z][a-z0-9:_-]{0,30}$/;

/** The text that lets a shell run a second command (or redirect) after the allowed one. */
export const COMPOUND_GUARD_MATCHES: readonly string[] = ['*;*', '*&*', '*|*', '*$(*', '*`*', '*>*', '*<*', '*\n*'];

/** The guards for one shell tool's command path: ask rules, so a compound command parks for a person. */
export const compoundGuards = (tool: string, path = 'command'): ApprovalRule[] =>
  COMPOUND_GUARD_MATCHES.map((match) => ({ tool, path, match, verdict: 'ask' as const }));

const isShellCommand = (rule: ApprovalRule) => SHELL_TOOLS.includes(rule.tool) && rule.path === 'command';
const same = (a: ApprovalRule, b: ApprovalRule) =>
  a.tool === b.tool && a.path === b.path && a.match === b.match && a.verdict === b.verdict && (a.origin ?? 'model') === (b.origin ?? 'model');

/**
 * The rules to add for an allow rule: the rule, and when it is a shell command glob (a `*` or `?` in its match)
 * the guards on that command path that the profile does not have yet.
 */
export function rulesToAdd(allow: ApprovalRule, existing: readonly ApprovalRule[] = []): ApprovalRule[] {
  const wild = allow.match !== undefined && (allow.match.includes('*') || allow.match.includes('?'));
  if (!isShellCommand(allow) || !wild) return [allow];
  const have = [...existing, allow];
  return [allow, ...compoundGuards(allow.tool, allow.path).filter((g) => !have.some((r) => same(r, g)))];
}

/** The allow rule a card suggests: the tool, and a glob over the command's first words or the path's folder. */
export function suggestRule(tool: string, input: unknown): ApprovalRule {
  const o = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (SHELL_TOOLS.includes(tool) && typeof o.command === 'string') {
    const command = o.command.trim();
    const ws = command.split(/\s+/);
    const head = [ws[0]];
    if (ws[1] && SUBCOMMAND.test(ws[1])) head.push(ws[1]);
    // A multi-line script, or a first word that is itself shell syntax, is allowed exactly or not at all.
    const plain = !/[\n*?]/.test(command) && /^[A-Za-z0-9._/-]+$/.test(ws[0]);
    const match = head.length === ws.length || !plain ? command : `${head.join(' ')} *`;
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

export type CardOutcome = 'allowed' | 'asks' | 'denied' | 'refused';

/** What a rule list does to each call under a mode: the live tester beside the suggestion. */
export function outcomesUnder(rules: readonly ApprovalRule[], mode: Mode, calls: readonly CardCall[]): Map<string, CardOutcome> {
  const out = new Map<string, CardOutcome>();
  let compiled;
  try {
    compiled = compileRules(rules);
  } catch {
    return out;
  }
  for (const c of calls) {
    const d = evaluateCall(compiled, mode, { tool: c.tool, input: c.input, origin: 'model' });
    out.set(c.id, d.outcome === 'granted' ? 'allowed' : d.outcome === 'parked' ? 'asks' : d.matched.length ? 'denied' : 'refused');
  }
  return out;
}

/** Which of these calls a rule list alone would allow. */
export function callsAllowedBy(rules: ApprovalRule | readonly ApprovalRule[], calls: readonly CardCall[]): string[] {
  const list = Array.isArray(rules) ? rules : [rules as ApprovalRule];
  const o = outcomesUnder(list, 'rules', calls);
  return calls.filter((c) => o.get(c.id) === 'allowed').map((c) => c.id);
}

/** The text a rule's match reads in a call, for showing beside the glob. */
export const matchedText = (rule: ApprovalRule, input: unknown): string | null => (rule.path ? textAtPath(input, rule.path) : null);
