// A connected client's session ends: when the client says so (its SessionEnd hook: Claude Code and Codex both
// fire it as the process exits, `-p` / `exec` included), or when no call came for `clients.idleMinutes`
// (an interactive session left open, a client killed before its hook could run). The session's run then
// succeeds: it ran what its person allowed, and it is no longer in flight, so Stop all does not cancel it. A
// later call of the same session (a resumed session) re-opens it with the same frozen rules.
import type { Kernel } from '../kernel/kernel.js';
import type { Clock, TimerHandle } from '../kernel/clock.js';
import type { Run } from '../kernel/types.js';
import { findSessionRun, sessionKey } from './session-runs.js';
import type { ClientName } from './tool-map.js';
import { log } from '../log.js';

/** How often the idle sweep looks, at most (a shorter idle time is looked at more often). */
const SWEEP_MS = 60_000;

export type EndedBy = 'client' | 'idle';

/** End the session's run if it is running; its live rows (a card nobody can answer any more) are canceled. */
export function endSessionRun(kernel: Kernel, clock: Clock, run: Run, by: EndedBy, detail: string): Run {
  if (run.status !== 'running') return run;
  const [, client = 'client'] = (run.created_by ?? '').split(':');
  kernel.records.recordRunEvent(run.id, 'client_session_ended', { by, detail }, clock.now());
  const why = by === 'client' ? `${client} ended the session (${detail})` : `no call for ${detail}`;
  return kernel.endRun(run.id, { status: 'succeeded', final_answer: `The ${client} session ended: ${why}.` });
}

/** The client's SessionEnd: the run of that session, ended; null when NEXUS never saw a call of it. */
export function clientEndedSession(kernel: Kernel, clock: Clock, client: ClientName, session_id: string, reason?: string): Run | null {
  const run = findSessionRun(kernel, sessionKey(client, session_id));
  if (!run) return null;
  return endSessionRun(kernel, clock, run, 'client', reason?.trim() ? reason.trim().slice(0, 200) : 'no reason given');
}

/** Every running client session with no call for `idleMs` and nothing waiting on a person, ended. */
export function endIdleSessions(kernel: Kernel, clock: Clock, idleMs: number): string[] {
  const cutoff = clock.now() - idleMs;
  const ended: string[] = [];
  for (const r of kernel.records.runningClientRuns()) {
    if (r.live || r.last_at > cutoff) continue;
    const run = kernel.getRun(r.id);
    if (run?.status !== 'running') continue;
    endSessionRun(kernel, clock, run, 'idle', `${Math.round(idleMs / 60_000)} min`);
    ended.push(r.id);
  }
  return ended;
}

/** The idle sweep: re-reads the idle time at each look (a changed setting holds at the next one). Returns stop. */
export function startIdleSweep(kernel: Kernel, clock: Clock, idleMs: () => number): () => void {
  let timer: TimerHandle | null = null;
  let stopped = false;
  const look = () => {
    timer = null;
    if (stopped || !kernel.isOpen) return;
    const ms = idleMs();
    try {
      endIdleSessions(kernel, clock, ms);
    } catch (e) {
      log.error('ending idle client sessions failed', e);
    }
    timer = clock.setTimeout(look, Math.min(SWEEP_MS, Math.max(1000, Math.round(ms / 4))));
  };
  timer = clock.setTimeout(look, Math.min(SWEEP_MS, Math.max(1000, Math.round(idleMs() / 4))));
  return () => {
    stopped = true;
    if (timer) clock.clearTimeout(timer);
  };
}
