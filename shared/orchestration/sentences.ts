// One sentence per denial: it names the condition that failed and where to change it (DESIGN §3), so a
// person reading an agent's report knows which of six unrelated things to go check. Pure.
import type { OrchestrationCode } from '../types.js';
import { ENTITLEMENT_NAME, SETTINGS_PLACE } from './codes.js';

/** The facts a denial sentence may quote. */
export interface DenialFacts {
  depth?: number;
  maxDepth?: number;
  agents?: number;
  maxAgents?: number;
  /** The first orchestrator of the hop's path that is not on the allowlist. */
  orchestrator?: string;
  /** Why the entitlement is absent: never imported, expired, or the token does not carry it. */
  entitlementStatus?: 'absent' | 'expired' | 'invalid' | 'missing_ent';
}

export function denialSentence(code: OrchestrationCode, f: DenialFacts = {}): string {
  switch (code) {
    case 'orchestration_stopped':
      return `Orchestration is stopped: Stop all is in effect, so no chained hop runs until a person presses Resume in ${SETTINGS_PLACE} (or runs \`nexus resume\`).`;
    case 'orchestration_not_entitled': {
      const why =
        f.entitlementStatus === 'expired'
          ? `the ${ENTITLEMENT_NAME} entitlement has expired`
          : f.entitlementStatus === 'missing_ent'
            ? `the imported entitlement token does not include ${ENTITLEMENT_NAME}`
            : f.entitlementStatus === 'invalid'
              ? `the stored entitlement token could not be verified`
              : `this account has no ${ENTITLEMENT_NAME} entitlement`;
      return `Orchestration is not entitled: ${why}. Get the entitlement from the account service and import it (\`nexus entitlements import FILE\`); no local setting can grant it.`;
    }
    case 'orchestration_disabled':
      return `Cross-Agent Orchestration is switched off: turn it on in ${SETTINGS_PLACE} (setting orchestration.enabled).`;
    case 'orchestrator_not_allowed':
      return `Orchestrator not allowed: agent "${f.orchestrator ?? '?'}" handed this work down but is not on the orchestrator allowlist. Add it to the Orchestrator allowlist in ${SETTINGS_PLACE} (setting orchestration.allowlist).`;
    case 'chain_depth_exceeded':
      return `Chain depth limit reached: this hop would run at depth ${f.depth ?? '?'} and the limit is ${f.maxDepth ?? '?'}. Raise Maximum chain depth in ${SETTINGS_PLACE}, or wait for the run in progress to finish.`;
    case 'chain_agents_exceeded':
      return `Chain agent limit reached: this hop would bring the chain to ${f.agents ?? '?'} distinct agents and the limit is ${f.maxAgents ?? '?'}. Raise Maximum agents per chain in ${SETTINGS_PLACE}, or wait for the run in progress to finish.`;
  }
}

/** A short machine-friendly reason (structuredContent.reason) beside the sentence. */
export function denialReason(code: OrchestrationCode, f: DenialFacts = {}): string {
  switch (code) {
    case 'orchestration_stopped':
      return 'stop_all_in_effect';
    case 'orchestration_not_entitled':
      return `entitlement_${f.entitlementStatus ?? 'absent'}`;
    case 'orchestration_disabled':
      return 'orchestration_setting_off';
    case 'orchestrator_not_allowed':
      return `orchestrator ${f.orchestrator ?? '?'} not on allowlist`;
    case 'chain_depth_exceeded':
      return `depth ${f.depth} > max ${f.maxDepth}`;
    case 'chain_agents_exceeded':
      return `agents ${f.agents} > max ${f.maxAgents}`;
  }
}

export interface HoldFacts {
  agent: string;
  action: string;
  target: string;
  hop: number;
  chain_id: string;
  request_id: string;
}

export function heldSentence(f: HoldFacts): string {
  return `Held for approval: hop ${f.hop} of chain ${f.chain_id} (agent "${f.agent}" wants ${f.action} on ${quoteTarget(f.target)}) was not executed; per-hop approval asks a person first (Orchestration per-hop approval in ${SETTINGS_PLACE}). Retry the identical call once it is approved (request ${f.request_id}).`;
}

export function refusedSentence(f: HoldFacts & { reason?: string | null }): string {
  const why = f.reason ? ` Reason given: ${f.reason}` : '';
  return `Refused: a person refused hop ${f.hop} of chain ${f.chain_id} (agent "${f.agent}" wanted ${f.action} on ${quoteTarget(f.target)}); it was not executed. Report this refusal instead of retrying.${why}`;
}

/** An expired hold: nobody refused it, so it must not read like a person's refusal. */
export function expiredSentence(f: HoldFacts): string {
  return `Expired: nobody answered held hop ${f.hop} of chain ${f.chain_id} (agent "${f.agent}" wanted ${f.action} on ${quoteTarget(f.target)}) within 24 hours; it was not executed and no person refused it. Report that the approval expired instead of retrying.`;
}

const quoteTarget = (t: string): string => (t ? JSON.stringify(t.length > 120 ? `${t.slice(0, 117)}...` : t) : 'nothing in particular');
