// The governance service: one per app. It owns the gate the kernel calls, the answers to orchestration
// holds, Stop all / Resume, settings, the entitlement and Recent chains. The gate itself is gate.ts (decides)
// and hop-gate.ts (as the kernel calls it); a hold's card is hold-card.ts; delegation lives in delegation.ts.
import type { Kernel } from '../kernel/kernel.js';
import type { HopGateCall, HopGateDecision, Run } from '../kernel/types.js';
import type { Db } from '../store/db.js';
import { tx } from '../store/db.js';
import { resolveInboxItem } from '../store/queries/inbox.js';
import { listRunningRunIds } from '../store/queries/runs.js';
import { ApiFailure } from '../../shared/errors.js';
import type { HopCode, HopVerdict, Settings } from '../../shared/types.js';
import { gateHop } from './hop-gate.js';
import { RecentChains } from './recent-chains.js';
import { readSetting, readSettings, settingWarnings, writeSetting, writeStopAll, type SettingWarning } from '../store/queries/settings.js';
import {
  importEntitlement,
  loadEntitlementKey,
  reverifyStoredEntitlement,
  showEntitlement,
  type EntitlementKey,
  type EntitlementView,
} from './entitlements.js';
import { answerHold, cancelHold, expireHold, getHold, holdExpiresAt, pendingHolds, pendingHoldsOfRun, type Hold } from '../store/queries/holds.js';
import { openTaskOfRun } from '../store/queries/tasks.js';
import { APPROVAL_EXPIRED_TEXT } from '../../shared/types.js';
import { HoldTimers, waitingOn, type WaitingOn } from './hold-clock.js';
import type { TurnsPort } from './turns-port.js';
import type { GovernancePorts } from './ports.js';
import { AccountLink } from './account.js';
import { log } from '../log.js';

export const STOP_ALL_REASON = 'Force-stopped by Stop all (a person pressed it); Resume lifts it for new work.';

export class Governance {
  readonly db: Db;
  readonly kernel: Kernel;
  readonly key: EntitlementKey;
  readonly recent: RecentChains;
  /** The account service link: NEXUS_ACCOUNT_URL / NEXUS_ACCOUNT_TOKEN, refresh at start and every 6 h. */
  readonly account: AccountLink;
  /** Told when a hold expired unanswered (delegation fails the held run's task). */
  onHoldExpired: (hold: Hold) => void = () => {};
  /** A team desk's Stop all for governed hops (engaged elsewhere, or the desk silent too long); false without one. */
  deskStop: () => boolean = () => false;
  /** The expiry timer of each pending hold. */
  private readonly holdTimers: HoldTimers;

  constructor(private readonly nexus: GovernancePorts) {
    this.db = nexus.db;
    this.kernel = nexus.kernel;
    this.key = loadEntitlementKey(nexus.env);
    this.recent = new RecentChains(
      () => nexus.clock.now(),
      () => this.kernel.emit({ type: 'chains_changed' }),
    );
    this.holdTimers = new HoldTimers(nexus.clock, (h) => {
      if (this.kernel.isOpen) this.expire(h);
    });
    this.account = new AccountLink({
      env: nexus.env,
      clock: nexus.clock,
      db: nexus.db,
      key: this.key,
      onChange: () => this.kernel.emit({ type: 'settings_changed' }),
    });
  }

  now(): number {
    return this.nexus.clock.now();
  }

  /** AGENTS' turns (startTurn, continueRun, addFinalizer), handed over by electron/app.ts. */
  turns(): TurnsPort {
    const t = this.nexus.turns;
    if (!t) throw new ApiFailure('not_available', 'Agent turns are not available in this build.');
    return t;
  }

  async start(): Promise<void> {
    const turnedInvalid = await reverifyStoredEntitlement(this.db, this.key, this.now());
    if (turnedInvalid) log.warn(turnedInvalid);
    // Not awaited: the app starts with the stored token; the account's answer replaces it when it comes.
    this.nexus.onClose(() => this.account.close());
    this.nexus.onClose(() => this.holdTimers.clear());
    this.account.start();
  }

  // ── the hold clock ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * After a start (the kernel recovered): a hold whose 24 h passed while NEXUS was closed expires now; the
   * others get their timer back. Nothing is left waiting on a person for ever.
   */
  sweepHolds(): void {
    for (const h of pendingHolds(this.db)) {
      if (holdExpiresAt(h) <= this.now()) this.expire(h);
      else this.holdTimers.arm(h);
    }
  }

  /**
   * Nobody answered within 24 h: the hop is refused with the expiry sentence (its identical retry reads it),
   * the card closes as expired, the held run's task fails (its delegator gets the failure) and the held agent
   * is told.
   */
  expire(h: Hold): boolean {
    if (
      !this.endHold(h, () => expireHold(this.db, h.request_id, APPROVAL_EXPIRED_TEXT, this.now()), {
        card: 'expired',
        verdict: 'refused',
        code: 'approval_expired',
      })
    )
      return false;
    const task = openTaskOfRun(this.db, h.run_id);
    try {
      this.onHoldExpired(h);
    } catch (e) {
      log.error('failing the task of an expired hold failed', e);
    }
    this.continueHeldRun(
      h.run_id,
      `Nobody answered held hop ${h.hop} (request ${h.request_id}) within 24 hours: ${APPROVAL_EXPIRED_TEXT} Your ${h.tool} call on ${JSON.stringify(h.target)} is refused; do not retry it.${task ? ` Your task ${task.id} from "${task.delegator}" failed and "${task.delegator}" was told.` : ''} Report this in your answer.`,
    );
    return true;
  }

  /** What each run waits on (hold-clock.ts). */
  waitingOn(): Map<string, WaitingOn[]> {
    return waitingOn(this.db);
  }

  // ── the gate ─────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The hop gate the kernel calls inside its transaction (hop-gate.ts): it decides and writes; the card, the
   * hold's clock and Recent chains follow in the decision's `after`, once the decision is committed.
   */
  gate(call: HopGateCall): HopGateDecision {
    return gateHop(
      {
        db: this.db,
        kernel: this.kernel,
        now: () => this.now(),
        keyFingerprint: this.key.fingerprint,
        recent: this.recent,
        holdTimers: this.holdTimers,
        stopAll: () => this.deskStop(),
      },
      call,
    );
  }

  /**
   * A person answered a hold. The card closes, Recent chains switches now, and a continuation in the held
   * agent's run tells it the answer so it retries (approved) or reports (refused).
   */
  answer(request_id: string, approve: boolean, by: string, reason?: string): { state: string } {
    const hold = getHold(this.db, request_id);
    if (!hold) throw new ApiFailure('not_found', `No orchestration hold ${JSON.stringify(request_id)}.`);
    const answered = () => answerHold(this.db, { request_id, approve, by, reason: reason?.trim() || null, now: this.now() });
    if (!this.endHold(hold, answered, { card: approve ? 'approved' : 'denied', by, verdict: approve ? 'approved' : 'refused' })) {
      const why = this.closedBecause(request_id);
      throw new ApiFailure('conflict', `Orchestration hold ${request_id} is no longer waiting (it is ${hold.status}${why ? `: ${why}` : ''}).`);
    }
    const text = approve
      ? `A person APPROVED held hop ${hold.hop} (request ${request_id}): your ${hold.tool} call on ${JSON.stringify(hold.target)}. Retry that identical call now (same tool, same input); the approval covers exactly one use.`
      : `A person REFUSED held hop ${hold.hop} (request ${request_id}): your ${hold.tool} call on ${JSON.stringify(hold.target)}${reason?.trim() ? ` (reason: ${reason.trim()})` : ''}. Do not retry it; report the refusal in your answer.`;
    this.continueHeldRun(hold.run_id, text);
    return { state: approve ? 'approved' : 'refused' };
  }

  private continueHeldRun(run_id: string, text: string): void {
    try {
      const run = this.kernel.getRun(run_id);
      if (!run || run.status === 'canceled') return; // stopped: nothing to tell
      if (!this.nexus.turns) return; // a bare kernel (no turns): nobody to tell
      void Promise.resolve(this.turns().continueRun(run_id, text)).catch((e) => log.error('could not continue the held run', e));
    } catch (e) {
      log.error('could not continue the held run', e);
    }
  }

  // ── settings ─────────────────────────────────────────────────────────────────────────────────────────────

  settings(): Settings {
    return readSettings(this.db);
  }

  /** Every door (CLI, window, API) sets through here, so a setting's warnings are said on every path. */
  setSetting(key: string, value: unknown): Settings & { warnings?: SettingWarning[] } {
    const s = writeSetting(this.db, key, value, this.now());
    this.kernel.emit({ type: 'settings_changed' });
    const warnings = settingWarnings(this.db, key, s);
    return warnings.length ? { ...s, warnings } : s;
  }

  stopAllInEffect(): boolean {
    return readSetting(this.db, 'orchestration.stopAll') || this.deskStop();
  }

  /**
   * Stop all: recorded first (so no governed hop passes from this instant), then every run in flight is
   * force-stopped, oldest first (a delegator before the runs it started), pending holds canceled. Nothing asks.
   */
  stopAll(): { stopped_runs: number } {
    writeStopAll(this.db, true, this.now());
    this.kernel.emit({ type: 'settings_changed' });
    // Counted: every run that was in flight (stopping a delegator cascades to the runs it started).
    for (const h of pendingHolds(this.db)) {
      this.endHold(h, () => cancelHold(this.db, h.request_id, this.now()), {
        card: 'canceled',
        by: 'stop_all',
        verdict: 'denied',
        code: 'orchestration_stopped',
      });
    }
    // Runs may start while others stop (a turn ending hands back to its delegator): sweep until none is left.
    const stopped = new Set<string>();
    for (let pass = 0; pass < 10; pass++) {
      const live = listRunningRunIds(this.db);
      if (!live.length) break;
      for (const id of live) stopped.add(id);
      for (const id of live) {
        const run: Run | null = this.kernel.getRun(id);
        // The run's error and each canceled row read this: say who stopped it and what lifts it ("Stop all" alone
        // read like a label, not a reason).
        if (run?.status === 'running') this.kernel.stopRun(id, { reason: STOP_ALL_REASON });
      }
    }
    return { stopped_runs: stopped.size };
  }

  /** A run was force-stopped: its pending holds are canceled (nothing asks about a stopped run). */
  cancelHoldsOfRun(run_id: string): void {
    for (const h of pendingHoldsOfRun(this.db, run_id)) {
      // Nobody refused it: it ended because its run was stopped. Still one of the five words; the code says why.
      this.endHold(h, () => cancelHold(this.db, h.request_id, this.now()), { card: 'canceled', verdict: 'refused', code: 'run_stopped' });
    }
  }

  /**
   * A delegated task was closed while its recipient waited on a hold (a restart interrupted the delegating
   * call): nobody waits for that work any more, so its holds close with it and cannot be approved later.
   */
  closeHoldsOfTask(run_id: string, why: string): number {
    let n = 0;
    for (const h of pendingHoldsOfRun(this.db, run_id)) {
      const closed = this.endHold(h, () => cancelHold(this.db, h.request_id, this.now(), why), {
        card: 'canceled',
        by: 'task_canceled',
        verdict: 'refused',
        code: 'task_canceled',
      });
      if (closed) n++;
    }
    return n;
  }

  /** Why a hold that is no longer pending cannot be answered, when it closed for a stated cause. */
  closedBecause(request_id: string): string | null {
    const h = getHold(this.db, request_id);
    return h?.status === 'canceled' && h.reason ? `it was closed with its task: ${h.reason}` : null;
  }

  /**
   * A hold ends outside the gate (answered, expired, canceled): its new status and its card's in ONE
   * transaction, then, once committed, its timer stops, the windows and Recent chains learn of it.
   * False when `end` found the hold no longer pending (someone else ended it first).
   */
  private endHold(h: Hold, end: () => boolean, o: { card: string; by?: string; verdict: HopVerdict; code?: HopCode }): boolean {
    const closed = tx(this.db, () => end() && { card: resolveInboxItem(this.db, { id: h.request_id, status: o.card, by: o.by ?? null, now: this.now() }) });
    if (!closed) return false;
    this.holdTimers.disarm(h.request_id);
    if (closed.card) this.kernel.emitInbox({ removed: [{ id: h.request_id, status: o.card }] });
    this.recent.setVerdict(h.chain_id, h.hop, o.verdict, o.code);
    return true;
  }

  resume(): Settings {
    writeStopAll(this.db, false, this.now());
    this.kernel.emit({ type: 'settings_changed' });
    return readSettings(this.db);
  }

  // ── entitlement ──────────────────────────────────────────────────────────────────────────────────────────

  async importEntitlement(token: string): Promise<EntitlementView> {
    await importEntitlement(this.db, token, this.key, this.now(), 'import');
    this.kernel.emit({ type: 'settings_changed' });
    return this.showEntitlement();
  }

  /** Take the entitlement from the account service now (the same verification as an import). */
  refreshEntitlement(): Promise<EntitlementView> {
    return this.account.refresh();
  }

  showEntitlement(): EntitlementView {
    return showEntitlement(this.db, this.key, this.now(), this.account.view());
  }
}
