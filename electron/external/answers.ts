// The sentences a connected client's model reads. A deny's reason is shown to the model verbatim (Claude Code
// as the tool_result, Codex inside "Command blocked by PreToolUse hook: …"), so each says what happened and
// what would change it.
import type { Row } from '../kernel/types.js';

export const STOP_ALL_SENTENCE =
  'NEXUS Stop all is engaged: a person stopped every agent, and this call did not run. Nothing runs until they press Resume in NEXUS.';
export const HOOK_GONE = 'The client stopped waiting for an answer (its hook ended) before anyone approved this call; it did not run.';
export const NOT_RUNNING_SENTENCE = 'NEXUS is not running, so nobody can approve this call; it did not run. Start NEXUS (or `nexus serve`) and try again.';

const minutes = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} seconds` : `${Math.round(s / 60)} minutes`;
};
export const expiredSentence = (waitMs: number) =>
  `Nobody approved this call in time: NEXUS waited ${minutes(waitMs)} for a person, then closed the request. It did not run; ask again later or ask the person to add a rule.`;

export interface DecisionPart {
  decision: 'allow' | 'deny';
  reason: string;
  by: string;
}

/** One hook answer for all the rows of one call: allow only when every row was granted. */
export function answerFor(rows: Row[], ctx: { waitMs: number; parked: string[] }): DecisionPart {
  const bad = rows.find((r) => r.state !== 'running' && r.state !== 'succeeded');
  if (!bad) {
    const by = rows.some((r) => r.granted_by === 'person') ? 'person' : (rows[0]?.granted_by ?? 'nexus');
    const why =
      by === 'person'
        ? 'approved by a person'
        : by === 'rule'
          ? 'allowed by an approval rule'
          : by === 'trust'
            ? 'trusted for this session by a person'
            : `allowed (${by})`;
    return { decision: 'allow', reason: `NEXUS: ${why}.`, by };
  }
  const wasParked = ctx.parked.includes(bad.id);
  const code = bad.error?.code ?? '';
  const detail = bad.error?.detail ?? '';
  if (bad.state === 'timed_out' && code === 'approval_expired') return { decision: 'deny', reason: expiredSentence(ctx.waitMs), by: 'expiry' };
  if (bad.state === 'canceled') return { decision: 'deny', reason: `NEXUS stopped this call: ${detail}`, by: 'stop' };
  if (code === 'approval_denied' && wasParked) {
    const own = detail === HOOK_GONE || detail.startsWith('Another part of the same call');
    return { decision: 'deny', reason: own ? detail : `A person denied this call in NEXUS: ${detail}`, by: own ? 'nexus' : 'person' };
  }
  if (code === 'approval_denied') return { decision: 'deny', reason: `NEXUS denied this call: ${detail}`, by: bad.matched.length ? 'rule' : 'mode' };
  if (code === 'approval_error') return { decision: 'deny', reason: `NEXUS could not decide this call, so it refused it: ${detail}`, by: 'nexus' };
  return {
    decision: 'deny',
    reason: `NEXUS refused this call (${code || bad.state}): ${detail}`,
    by: code.startsWith('orchestration') || code === 'hop_denied' ? 'orchestration' : 'nexus',
  };
}
