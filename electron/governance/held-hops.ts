// Held hops: how an orchestration hold ends outside the gate. A person answers it, its 24 h pass, Stop all or a
// stopped run cancels it, or its delegated task closes. Each end writes the hold's new status and its card's in
// ONE transaction, then, once committed, stops its timer, tells the windows and Recent chains, and continues the
// held agent's run with a sentence saying what happened (retry once on approval, report otherwise).
import type { Kernel } from '../kernel/kernel.js';
import type { Db } from '../store/db.js';
import { tx } from '../store/db.js';
import { resolveInboxItem } from '../store/queries/inbox.js';
import { answerHold, cancelHold, expireHold, getHold, holdExpiresAt, pendingHolds, pendingHoldsOfRun, type Hold } from '../store/queries/holds.js';
import { openTaskOfRun } from '../store/queries/tasks.js';
import { ApiFailure } from '../../shared/errors.js';
import { APPROVAL_EXPIRED_TEXT, type HopCode, type HopVerdict } from '../../shared/types.js';
import type { Clock } from '../kernel/clock.js';
import { HoldTimers } from './hold-clock.js';
import type { RecentChains } from './recent-chains.js';
import type { TurnsPort } from './turns-port.js';
import { log } from '../log.js';

export interface HeldHopsPorts {
  db: Db;
  kernel: Kernel;
  clock: Clock;
  recent: RecentChains;
  /** AGENTS' turns, when this build has them: a held run is continued through them. */
  turns: () => TurnsPort | null;
}

export class HeldHops {
  /** Told when a hold expired unanswered (delegation fails the held run's task). */
  onExpired: (hold: Hold) => void = () => {};
  /** The expiry timer of each pending hold (the gate arms one when it holds a hop). */
  readonly timers: HoldTimers;

  constructor(private readonly p: HeldHopsPorts) {
    this.timers = new HoldTimers(p.clock, (h) => {
      if (p.kernel.isOpen) this.expire(h);
    });
  }

  private now(): number {
    return this.p.clock.now();
  }

  /**
   * After a start (the kernel recovered): a hold whose 24 h passed while NEXUS was closed expires now; the
   * others get their timer back. Nothing is left waiting on a person for ever.
   */
  sweep(): void {
    for (const h of pendingHolds(this.p.db)) {
      if (holdExpiresAt(h) <= this.now()) this.expire(h);
      else this.timers.arm(h);
    }
  }

  /**
   * Nobody answered within 24 h: the hop is refused with the expiry sentence (its identical retry reads it),
   * the card closes as expired, the held run's task fails (its delegator gets the failure) and the held agent
   * is told.
   */
  expire(h: Hold): boolean {
    const expired = () => expireHold(this.p.db, h.request_id, APPROVAL_EXPIRED_TEXT, this.now());
    if (!this.end(h, expired, { card: 'expired', verdict: 'refused', code: 'approval_expired' })) return false;
    const task = openTaskOfRun(this.p.db, h.run_id);
    try {
      this.onExpired(h);
    } catch (e) {
      log.error('failing the task of an expired hold failed', e);
    }
    this.continueHeldRun(
      h.run_id,
      `Nobody answered held hop ${h.hop} (request ${h.request_id}) within 24 hours: ${APPROVAL_EXPIRED_TEXT} Your ${h.tool} call on ${JSON.stringify(h.target)} is refused; do not retry it.${task ? ` Your task ${task.id} from "${task.delegator}" failed and "${task.delegator}" was told.` : ''} Report this in your answer.`,
    );
    return true;
  }

  /**
   * A person answered a hold. The card closes, Recent chains switches now, and a continuation in the held
   * agent's run tells it the answer so it retries (approved) or reports (refused).
   */
  answer(request_id: string, approve: boolean, by: string, reason?: string): { state: string } {
    const hold = getHold(this.p.db, request_id);
    if (!hold) throw new ApiFailure('not_found', `No orchestration hold ${JSON.stringify(request_id)}.`);
    const why = reason?.trim() || null;
    const answered = () => answerHold(this.p.db, { request_id, approve, by, reason: why, now: this.now() });
    if (!this.end(hold, answered, { card: approve ? 'approved' : 'denied', by, verdict: approve ? 'approved' : 'refused' })) {
      const closed = this.closedBecause(request_id);
      throw new ApiFailure('conflict', `Orchestration hold ${request_id} is no longer waiting (it is ${hold.status}${closed ? `: ${closed}` : ''}).`);
    }
    const call = `your ${hold.tool} call on ${JSON.stringify(hold.target)}`;
    const text = approve
      ? `A person APPROVED held hop ${hold.hop} (request ${request_id}): ${call}. Retry that identical call now (same tool, same input); the approval covers exactly one use.`
      : `A person REFUSED held hop ${hold.hop} (request ${request_id}): ${call}${why ? ` (reason: ${why})` : ''}. Do not retry it; report the refusal in your answer.`;
    this.continueHeldRun(hold.run_id, text);
    return { state: approve ? 'approved' : 'refused' };
  }

  /** Stop all: every pending hold is canceled, denied as `orchestration_stopped`. */
  cancelAll(): void {
    for (const h of pendingHolds(this.p.db)) {
      this.end(h, () => cancelHold(this.p.db, h.request_id, this.now()), {
        card: 'canceled',
        by: 'stop_all',
        verdict: 'denied',
        code: 'orchestration_stopped',
      });
    }
  }

  /** A run was force-stopped: its pending holds are canceled (nothing asks about a stopped run). */
  cancelOfRun(run_id: string): void {
    for (const h of pendingHoldsOfRun(this.p.db, run_id)) {
      // Nobody refused it: it ended because its run was stopped. Still one of the five words; the code says why.
      this.end(h, () => cancelHold(this.p.db, h.request_id, this.now()), { card: 'canceled', verdict: 'refused', code: 'run_stopped' });
    }
  }

  /**
   * A delegated task was closed while its recipient waited on a hold (a restart interrupted the delegating
   * call): nobody waits for that work any more, so its holds close with it and cannot be approved later.
   */
  closeOfTask(run_id: string, why: string): number {
    let n = 0;
    for (const h of pendingHoldsOfRun(this.p.db, run_id)) {
      const canceled = () => cancelHold(this.p.db, h.request_id, this.now(), why);
      if (this.end(h, canceled, { card: 'canceled', by: 'task_canceled', verdict: 'refused', code: 'task_canceled' })) n++;
    }
    return n;
  }

  /** Why a hold that is no longer pending cannot be answered, when it closed for a stated cause. */
  closedBecause(request_id: string): string | null {
    const h = getHold(this.p.db, request_id);
    return h?.status === 'canceled' && h.reason ? `it was closed with its task: ${h.reason}` : null;
  }

  /** False when `end` found the hold no longer pending (someone else ended it first). */
  private end(h: Hold, end: () => boolean, o: { card: string; by?: string; verdict: HopVerdict; code?: HopCode }): boolean {
    const { db, kernel } = this.p;
    const closed = tx(db, () => end() && { card: resolveInboxItem(db, { id: h.request_id, status: o.card, by: o.by ?? null, now: this.now() }) });
    if (!closed) return false;
    this.timers.disarm(h.request_id);
    if (closed.card) kernel.emitInbox({ removed: [{ id: h.request_id, status: o.card }] });
    this.p.recent.setVerdict(h.chain_id, h.hop, o.verdict, o.code);
    return true;
  }

  private continueHeldRun(run_id: string, text: string): void {
    try {
      const run = this.p.kernel.getRun(run_id);
      if (!run || run.status === 'canceled') return; // stopped: nothing to tell
      const turns = this.p.turns();
      if (!turns) return; // a bare kernel (no turns): nobody to tell
      void Promise.resolve(turns.continueRun(run_id, text)).catch((e) => log.error('could not continue the held run', e));
    } catch (e) {
      log.error('could not continue the held run', e);
    }
  }
}
