// Session trust grants held by the kernel (in memory: every grant ends when this process does). The scope
// rules live in shared/trust.ts; the stage asks trustCovering, an approval with trust adds a grant here.
import { alreadyGranted, callScope, type TrustGrant, type TrustScope } from '../../shared/trust.js';
import { newId } from './ids.js';
import type { KernelState } from './kernel-state.js';
import type { Row } from './types.js';

export type TrustChoice = 'agent' | 'call';

/** The grant an approval with trust adds (or null when an equal grant already stands). */
export function grantTrust(k: KernelState, agent: string, row: Row, choice: TrustChoice, by: string): TrustGrant | null {
  const scope: TrustScope = choice === 'agent' ? { kind: 'agent' } : callScope(row.wire_tool, row.input);
  if (alreadyGranted(k.trust, agent, scope)) return null;
  const grant: TrustGrant = { id: newId('trust'), agent, scope, granted_at: k.clock.now(), by };
  k.trust.push(grant);
  return grant;
}

/** Take back grants: one by id, or every grant of an agent. Returns those removed. */
export function revokeTrust(k: KernelState, which: { agent?: string; id?: string }): TrustGrant[] {
  const gone = k.trust.filter((g) => (which.id !== undefined ? g.id === which.id : g.agent === which.agent));
  if (gone.length) k.trust = k.trust.filter((g) => !gone.includes(g));
  return gone;
}

/** Session trust as the layers above read and take it back (`kernel.trust`); grants are added by approvals. */
export class SessionTrust {
  constructor(private readonly k: KernelState) {}

  /** Whole-agent session trust. */
  isTrusted(agent: string): boolean {
    return this.k.trust.some((g) => g.agent === agent && g.scope.kind === 'agent');
  }
  /** The agents a person trusted whole for this session, by name (status shows them). */
  agents(): string[] {
    return [...new Set(this.k.trust.filter((g) => g.scope.kind === 'agent').map((g) => g.agent))].sort();
  }
  /** Every standing grant, oldest first (copies), of one agent or all. */
  grants(agent?: string): TrustGrant[] {
    return this.k.trust.filter((g) => agent === undefined || g.agent === agent).map((g) => ({ ...g }));
  }
  /** Take back every grant of an agent, or one grant: its later parks wait for a person again. */
  revoke(which: { agent?: string; id?: string }): boolean {
    return revokeTrust(this.k, which).length > 0;
  }
}
