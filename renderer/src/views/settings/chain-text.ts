// Recent chains in words (unit-tested): a denied hop showed only its code (orchestration_not_entitled), which
// says nothing to a person who has not read the spec. The plain reason goes beside the code, which stays
// (it is what the agent read and what the CLI prints).
import type { OrchestrationCode } from '../../../../shared/types.js';

export const DENIAL_WORDS: Readonly<Record<OrchestrationCode, string>> = {
  orchestration_stopped: 'Stop all is engaged',
  orchestration_not_entitled: 'no nexus.orchestration entitlement',
  orchestration_disabled: 'Cross-Agent Orchestration is off',
  orchestrator_not_allowed: 'an orchestrator is not on the allowlist',
  chain_depth_exceeded: 'over Maximum chain depth',
  chain_agents_exceeded: 'over Maximum agents per chain',
};

export const denialWords = (code: string | undefined): string | null => (code && code in DENIAL_WORDS ? DENIAL_WORDS[code as OrchestrationCode] : null);
