// Recent chains in words (unit-tested): a denied hop showed only its code (orchestration_not_entitled), which
// says nothing to a person who has not read the spec. The plain reason goes beside the code, which stays
// (it is what the agent read and what the CLI prints).
import type { HopCauseCode, OrchestrationCode } from '../../../../shared/types.js';

export const DENIAL_WORDS: Readonly<Record<OrchestrationCode, string>> = {
  orchestration_stopped: 'Stop all is engaged',
  orchestration_not_entitled: 'no nexus.orchestration entitlement',
  orchestration_disabled: 'Cross-Agent Orchestration is off',
  orchestrator_not_allowed: 'an orchestrator is not on the allowlist',
  chain_depth_exceeded: 'over Maximum chain depth',
  chain_agents_exceeded: 'over Maximum agents per chain',
};

export const denialWords = (code: string | undefined): string | null => (code && code in DENIAL_WORDS ? DENIAL_WORDS[code as OrchestrationCode] : null);

/** Why a hop was refused when no person refused it: the verdict stays one of the five words, the cause is here. */
export const CAUSE_WORDS: Readonly<Record<HopCauseCode, string>> = {
  run_stopped: 'nobody answered: its run was stopped first',
  task_canceled: 'nobody answered: its delegated task was closed when NEXUS restarted',
  approval_expired: 'nobody answered within 24 hours (expired)',
};

/** The plain words of any hop code: a denial's reason or a refusal's cause. */
const causeWords = new Map<string, string>(Object.entries(CAUSE_WORDS));
export const hopCodeWords = (code: string | undefined): string | null => denialWords(code) ?? (code ? (causeWords.get(code) ?? null) : null);

/** A refusal with a cause was nobody's answer: "refused by you" would be false. */
export const refusedByPerson = (hop: { verdict: string; code?: string }): boolean => hop.verdict === 'refused' && !hop.code;
