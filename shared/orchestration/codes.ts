// The orchestration gate's outcomes: the six denial codes of DESIGN §3 (in gate order), the two hold codes,
// and what each one means to the person who has to fix it. Pure: no I/O.
import { ORCHESTRATION_CODES, type OrchestrationCode } from '../types.js';

export { ORCHESTRATION_CODES, type OrchestrationCode };

/** A held or refused per-hop approval answers with one of these (not a denial: the gate passed). */
export const HOLD_CODES = ['hop_held', 'hop_refused'] as const;
export type HoldCode = (typeof HOLD_CODES)[number];

/** Only depth and breadth free up without a person acting (once the run in progress finishes). */
export const RETRYABLE: Readonly<Record<OrchestrationCode, boolean>> = {
  orchestration_stopped: false,
  orchestration_not_entitled: false,
  orchestration_disabled: false,
  orchestrator_not_allowed: false,
  chain_depth_exceeded: true,
  chain_agents_exceeded: true,
};

/** The setting (or source) a person changes to lift each denial; `entitlement` is not a local setting. */
export const SETTING_FOR: Readonly<Record<OrchestrationCode, string>> = {
  orchestration_stopped: 'orchestration.stopAll',
  orchestration_not_entitled: 'entitlement:nexus.orchestration',
  orchestration_disabled: 'orchestration.enabled',
  orchestrator_not_allowed: 'orchestration.allowlist',
  chain_depth_exceeded: 'orchestration.maxDepth',
  chain_agents_exceeded: 'orchestration.maxAgents',
};

export const SETTINGS_PLACE = 'Settings ▸ Agents ▸ Orchestration';
export const ENTITLEMENT_NAME = 'nexus.orchestration';
