// The 24 h clock of orchestration holds (the same as a parked row's), and what runs wait on while a hold is
// pending. Governance (service.ts) decides what expiry does; this file only keeps time and reads the store.
import type { Clock, TimerHandle } from '../kernel/clock.js';
import type { Db } from '../store/db.js';
import { holdExpiresAt, pendingHolds, type Hold } from '../store/queries/holds.js';
import { delegatorRunOf } from '../store/queries/tasks.js';

/** A pending hold some run waits on (its own hop, or one inside the delegation it waits for). */
export interface WaitingOn {
  request_id: string;
  hop: number;
  agent: string;
  tool: string;
  target: string;
  expires_at: string;
}

/** One timer per pending hold, firing `onDue` at its deadline. Answered or canceled holds are disarmed. */
export class HoldTimers {
  private timers = new Map<string, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (hold: Hold) => void,
  ) {}

  arm(h: Hold): void {
    this.disarm(h.request_id);
    this.timers.set(
      h.request_id,
      this.clock.setTimeout(
        () => {
          this.timers.delete(h.request_id);
          this.onDue(h);
        },
        holdExpiresAt(h) - this.clock.now(),
      ),
    );
  }

  disarm(request_id: string): void {
    const t = this.timers.get(request_id);
    if (t !== undefined) this.clock.clearTimeout(t);
    this.timers.delete(request_id);
  }

  clear(): void {
    for (const t of this.timers.values()) this.clock.clearTimeout(t);
    this.timers.clear();
  }
}

/**
 * What each run waits on: every pending hold, for its own run and for each delegator up the chain of open
 * tasks whose delegate_task call waits on that run.
 */
export function waitingOn(db: Db): Map<string, WaitingOn[]> {
  const out = new Map<string, WaitingOn[]>();
  for (const h of pendingHolds(db)) {
    const w: WaitingOn = {
      request_id: h.request_id,
      hop: h.hop,
      agent: h.agent,
      tool: h.tool,
      target: h.target,
      expires_at: new Date(holdExpiresAt(h)).toISOString(),
    };
    const seen = new Set<string>();
    for (let run_id: string | undefined = h.run_id; run_id && !seen.has(run_id);) {
      seen.add(run_id);
      out.set(run_id, [...(out.get(run_id) ?? []), w]);
      run_id = delegatorRunOf(db, run_id);
    }
  }
  return out;
}
