// The same approval rules as a Cedar policy set (cedar-wasm), for the peer comparison in the rules bench and
// the soak: each rule becomes one policy over Action::"<tool>" with `context.text like "<glob>"` where it has
// a match (Cedar's `like` has `*` only; `?` becomes `*`, close enough for timing, not for verdicts).
import type { ApprovalRule } from '../shared/types.js';
import type { Call } from '../shared/rules/index.js';

type CedarModule = typeof import('@cedar-policy/cedar-wasm/nodejs');

const cedarText = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\?/g, '*');

export function cedarPolicies(rules: ApprovalRule[]): string {
  return rules
    .map((r) => {
      const effect = r.verdict === 'deny' ? 'forbid' : 'permit';
      const actions = r.tool
        .split('|')
        .map((t) => `Action::"${cedarText(t)}"`)
        .join(', ');
      const when = r.match ? ` when { context.text like "${cedarText(r.match)}" }` : '';
      return `${effect}(principal, action in [${actions}], resource)${when};`;
    })
    .join('\n');
}

/** An authorizer over `rules`, or null when cedar-wasm is not installed. */
export async function cedarAuthorizer(rules: ApprovalRule[]): Promise<((call: Call) => string) | null> {
  let cedar: CedarModule;
  try {
    cedar = (await import('@cedar-policy/cedar-wasm/nodejs')) as CedarModule;
  } catch {
    return null;
  }
  // Parsed once and cached by cedar-wasm (as NEXUS compiles a rule list once): the comparison is per decision.
  const id = `nexus-${rules.length}-${Math.random().toString(36).slice(2)}`;
  const parsed = cedar.preparsePolicySet(id, { staticPolicies: cedarPolicies(rules) });
  if (parsed.type !== 'success') throw new Error(`Cedar refused the policies: ${JSON.stringify(parsed.errors)}`);
  return (call) => {
    const input = call.input as Record<string, unknown>;
    const text = typeof input.command === 'string' ? input.command : typeof input.path === 'string' ? input.path : '';
    const answer = cedar.statefulIsAuthorized({
      principal: { type: 'Agent', id: 'a' },
      action: { type: 'Action', id: call.tool },
      resource: { type: 'Workspace', id: 'w' },
      context: { text },
      preparsedPolicySetId: id,
      entities: [],
    });
    return answer.type === 'success' ? answer.response.decision : 'error';
  };
}
