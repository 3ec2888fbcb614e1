// Session trust: what "Trust for this session" grants and whether a call falls under it. Pure (no I/O): the
// approval stage (electron/kernel/trust.ts) and the agent editor's "Test a call" read the same answer.
//
// A grant has a scope. `agent`: every later call of that agent that would park (deny rules still bind,
// orchestration holds and escapes are never covered). `call`: only calls like the approved one, as Codex's
// per-command approval: the same tool and the same text at its deciding input (a shell tool's `command`, a
// file tool's `path`), or for any other tool the same input exactly. Every grant ends when NEXUS quits.
import { resolveInput, resolveToolName } from './rules/tool-names.js';
import { textAtPath } from './rules/path.js';

export type TrustScope = { kind: 'agent' } | { kind: 'call'; tool: string; key: string; text: string };

export interface TrustGrant {
  id: string;
  agent: string;
  scope: TrustScope;
  /** ms since the epoch */
  granted_at: number;
  by: string;
}

/** The input keys that decide what a call does, first present wins (after the kernel's key renames). */
const DECIDING_KEYS = ['command', 'path', 'url'];

/** Object keys sorted at every depth, so `{a,b}` and `{b,a}` are the same call. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, w]) => `${JSON.stringify(k)}:${canonical(w)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The `call` scope of one call: its resolved tool (with its runner route) and its deciding text. */
export function callScope(wireTool: string, input: unknown): Extract<TrustScope, { kind: 'call' }> {
  const resolved = resolveToolName(wireTool);
  const tool = resolved.runner ? `${resolved.name}@${resolved.runner}` : resolved.name;
  const args = resolveInput(resolved, input);
  for (const key of DECIDING_KEYS) {
    const text = textAtPath(args, key);
    if (typeof text === 'string') return { kind: 'call', tool, key, text };
  }
  return { kind: 'call', tool, key: '', text: canonical(args ?? {}) };
}

const sameScope = (a: TrustScope, b: TrustScope): boolean =>
  a.kind === b.kind && (a.kind === 'agent' || (b.kind === 'call' && a.tool === b.tool && a.key === b.key && a.text === b.text));

/** The grant that covers this call of this agent, or undefined (a whole-agent grant is found first). */
export function trustCovering<G extends Pick<TrustGrant, 'agent' | 'scope'>>(
  grants: readonly G[],
  agent: string | null,
  wireTool: string,
  input: unknown,
): G | undefined {
  if (!agent) return undefined;
  const mine = grants.filter((g) => g.agent === agent);
  const whole = mine.find((g) => g.scope.kind === 'agent');
  if (whole || !mine.length) return whole;
  const scope = callScope(wireTool, input);
  return mine.find((g) => sameScope(g.scope, scope));
}

/** Whether an equal grant already stands (granting twice adds nothing). */
export const alreadyGranted = (grants: readonly TrustGrant[], agent: string, scope: TrustScope): boolean =>
  grants.some((g) => g.agent === agent && sameScope(g.scope, scope));

/** One line for a grant's scope: what it lets through. */
export function scopeText(scope: TrustScope): string {
  if (scope.kind === 'agent') return 'every call that would ask you';
  const what = scope.key ? `${scope.key} ${JSON.stringify(scope.text)}` : `input ${scope.text}`;
  return `${scope.tool} calls with ${what} exactly`;
}
