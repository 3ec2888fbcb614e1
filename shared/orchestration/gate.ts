// The orchestration gate (DESIGN §3), pure: given the settings as read at this moment, the entitlement
// state and the hop's facts, the first failing condition answers, in this order:
//   1 Stop all  2 entitlement  3 local setting  4 allowlist  5 depth  6 agents.
// The store-reading half lives in electron/governance/gate.ts; this half never caches anything.
import type { OrchestrationCode, ToolResult } from '../types.js';
import type { HopFacts } from './chain.js';
import { RETRYABLE, SETTING_FOR } from './codes.js';
import { denialReason, denialSentence, type DenialFacts } from './sentences.js';

/** The settings the gate reads (a subset of shared/types Settings). */
export interface GateSettings {
  'orchestration.enabled': boolean;
  'orchestration.maxDepth': number;
  'orchestration.maxAgents': number;
  'orchestration.allowlist': readonly string[];
  'orchestration.stopAll': boolean;
}

/** The entitlement as the gate sees it: already checked for signature at import and for expiry now. */
export interface GateEntitlement {
  entitled: boolean;
  status: 'absent' | 'valid' | 'expired' | 'invalid' | 'missing_ent';
}

export interface Denial {
  code: OrchestrationCode;
  retryable: boolean;
  /** One sentence: the condition and where to change it. */
  text: string;
  reason: string;
  setting: string;
  chain_id: string;
  hop: number;
  facts: DenialFacts;
}

export type GateDecision = { allowed: true } | { allowed: false; denial: Denial };

const ALLOWED: GateDecision = Object.freeze({ allowed: true }) as GateDecision;

export function decideHop(settings: GateSettings, entitlement: GateEntitlement, hop: HopFacts): GateDecision {
  if (settings['orchestration.stopAll']) return deny('orchestration_stopped', hop, {});
  if (!entitlement.entitled) {
    const st = entitlement.status === 'valid' ? 'absent' : entitlement.status;
    return deny('orchestration_not_entitled', hop, { entitlementStatus: st });
  }
  if (!settings['orchestration.enabled']) return deny('orchestration_disabled', hop, {});
  const allow = settings['orchestration.allowlist'];
  for (const o of hop.orchestrators) {
    if (!allow.includes(o)) return deny('orchestrator_not_allowed', hop, { orchestrator: o });
  }
  const maxDepth = settings['orchestration.maxDepth'];
  if (hop.depth > maxDepth) return deny('chain_depth_exceeded', hop, { depth: hop.depth, maxDepth });
  const maxAgents = settings['orchestration.maxAgents'];
  if (hop.agents > maxAgents) return deny('chain_agents_exceeded', hop, { agents: hop.agents, maxAgents });
  return ALLOWED;
}

function deny(code: OrchestrationCode, hop: HopFacts, facts: DenialFacts): GateDecision {
  return {
    allowed: false,
    denial: {
      code,
      retryable: RETRYABLE[code],
      text: denialSentence(code, facts),
      reason: denialReason(code, facts),
      setting: SETTING_FOR[code],
      chain_id: hop.chain_id,
      hop: hop.hop,
      facts,
    },
  };
}

/** The CallToolResult a denied hop answers with (isError, the sentence, the machine-readable fields). */
export function denialResult(d: Denial): ToolResult {
  const structured: Record<string, unknown> = {
    code: d.code,
    retryable: d.retryable,
    reason: d.reason,
    setting: d.setting,
    chain_id: d.chain_id,
    hop: d.hop,
  };
  for (const [k, v] of Object.entries(d.facts)) if (v !== undefined) structured[k === 'entitlementStatus' ? 'entitlement' : k] = v;
  return { isError: true, content: [{ type: 'text', text: d.text }], structuredContent: structured };
}
