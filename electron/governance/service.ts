// The governance service: one per app. It owns the gate the kernel calls, Stop all / Resume, settings, the
// entitlement and Recent chains. The gate itself is gate.ts (decides) and hop-gate.ts (as the kernel calls it); a
// hold's card is hold-card.ts; how a hold ends (answered, expired, canceled) is held-hops.ts; delegation lives in
// delegation.ts.
import type { Kernel } from '../kernel/kernel.js';
import type { HopGateCall, HopGateDecision, Run } from '../kernel/types.js';
import type { Db } from '../store/db.js';
import { listRunningRunIds } from '../store/queries/runs.js';
import { ApiFailure } from '../../shared/errors.js';
import type { Settings } from '../../shared/types.js';
import { gateDeps, gateHop } from './hop-gate.js';
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
import { waitingOn, type WaitingOn } from './hold-clock.js';
import { HeldHops } from './held-hops.js';
import { HopNumbers } from './hop-numbers.js';
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
  /** The chains' hop numbers, handed out by the gate (hop-numbers.ts). */
  readonly hops = new HopNumbers();
  /** What the gate reads and calls, built at the first hop (not per hop: it runs on every governed call). */
  private gateWith: ReturnType<typeof gateDeps> | undefined;
  /** How holds end outside the gate: answered, expired, canceled (held-hops.ts). */
  readonly holds: HeldHops;
  /** A team desk's Stop all for governed hops (engaged elsewhere, or the desk silent too long); false without one. */
  deskStop: () => boolean = () => false;

  constructor(private readonly nexus: GovernancePorts) {
    this.db = nexus.db;
    this.kernel = nexus.kernel;
    this.key = loadEntitlementKey(nexus.env);
    this.recent = new RecentChains(
      () => nexus.clock.now(),
      () => this.kernel.emit({ type: 'chains_changed' }),
    );
    this.holds = new HeldHops({ db: nexus.db, kernel: nexus.kernel, clock: nexus.clock, recent: this.recent, turns: () => nexus.turns });
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
    this.nexus.onClose(() => this.holds.timers.clear());
    this.account.start();
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
    this.gateWith ??= gateDeps({
      db: this.db,
      kernel: this.kernel,
      now: () => this.now(),
      keyFingerprint: this.key.fingerprint,
      hops: this.hops,
      recent: this.recent,
      holdTimers: this.holds.timers,
      stopAll: () => this.deskStop(),
    });
    return gateHop(this.gateWith, call);
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
    this.holds.cancelAll();
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
