// A joined kernel's copy of the desk's policy: read whole at join and on every reconnect (NOTIFY has no replay)
// and on each `policy:` wake-up, applied entry by entry (policy.ts), each once per change at the desk.
import type { Kernel } from '../kernel/kernel.js';
import type { Governance } from '../governance/service.js';
import * as q from './pg/queries.js';
import type { DeskSql } from './pg/conn.js';
import { applyPolicyEntry, heldBy, localPolicy, type HeldPolicy, type PolicyOutcome, type SaveProfile } from './policy.js';

export class PolicySync {
  /** The desk's updated_at of each key as last applied (or refused) here. */
  private readonly seen = new Map<string, string>();
  private running: Promise<void> | null = null;
  private again = false;
  held: HeldPolicy = { agents: new Set(), settings: new Set() };
  readonly outcomes: PolicyOutcome[] = [];

  constructor(
    private readonly kernel: Kernel,
    private readonly gov: Governance | null,
    private readonly save: SaveProfile | null,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Read and apply the desk's policy soon; calls during a sync run it once more after. */
  soon(sql: () => DeskSql, closed: () => boolean): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const entries = await q.policyEntries(sql());
        if (closed() || !this.kernel.isOpen) return;
        this.held = heldBy(entries);
        for (const e of entries) {
          if (this.seen.get(e.key) === e.updated_at) continue;
          this.seen.set(e.key, e.updated_at);
          this.outcomes.push(applyPolicyEntry(this.save, this.gov, e));
        }
      } while (this.again && !closed());
    })()
      .catch((e: unknown) => this.onError(e))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Publish this machine's profiles and settings as `person` (only a nexus_policy member may). */
  async push(sql: DeskSql, person: string): Promise<string[]> {
    const entries = localPolicy(this.kernel, this.gov);
    await q.putPolicy(sql, { person, entries });
    return entries.map((e) => e.key);
  }

  get idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
