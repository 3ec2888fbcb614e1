// Recent chains (Settings ▸ Agents ▸ Orchestration ▸ Recent chains; DESIGN §3, seed 003 "Where to see what a
// chain did"): in memory, this app run only, bounded, most recently active first, only chains with more than
// one recorded hop. Refusals and denials are recorded exactly like admissions. A waiting hop switches to the
// person's answer the moment it is given (`setVerdict`), not when the agent retries. Clear forgets; it stops
// nothing and changes no limit. It records whether orchestration is on or off.
import type { ChainHopView, ChainView, HopVerdict, OrchestrationCode } from '../../shared/types.js';

export const DEFAULT_RECENT_CHAINS_LIMIT = 50;

interface Entry {
  chain_id: string;
  hops: Map<number, ChainHopView>;
  last_active: number;
}

export class RecentChains {
  /** Map order = activity order: the most recently active entry is last. */
  private chains = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly onChange: () => void = () => {},
    readonly limit = DEFAULT_RECENT_CHAINS_LIMIT,
  ) {}

  /** Record (or replace) one hop of a chain. */
  recordHop(chain_id: string, hop: Omit<ChainHopView, 'at'> & { at?: string }): void {
    const e = this.touch(chain_id);
    const view: ChainHopView = { ...hop, at: hop.at ?? new Date(this.now()).toISOString() };
    if (view.code === undefined) delete view.code;
    if (view.request_id === undefined) delete view.request_id;
    e.hops.set(hop.hop, view);
    this.evict();
    this.onChange();
  }

  /** A person answered (or the gate re-decided) a recorded hop: its verdict switches now. */
  setVerdict(chain_id: string, hop: number, verdict: HopVerdict, code?: OrchestrationCode): boolean {
    const e = this.chains.get(chain_id);
    const h = e?.hops.get(hop);
    if (!e || !h) return false;
    const next: ChainHopView = { ...h, verdict };
    if (code) next.code = code;
    else delete next.code;
    e.hops.set(hop, next);
    this.touch(chain_id);
    this.onChange();
    return true;
  }

  /** Most recently active first; only chains that composed (more than one recorded hop). */
  list(): ChainView[] {
    const out: ChainView[] = [];
    for (const e of [...this.chains.values()].reverse()) {
      if (e.hops.size < 2) continue;
      const hops = [...e.hops.values()].sort((a, b) => a.hop - b.hop);
      const agents: string[] = [];
      for (const h of hops) if (!agents.includes(h.agent)) agents.push(h.agent);
      out.push({ chain_id: e.chain_id, agents, hops, last_active_at: new Date(e.last_active).toISOString() });
    }
    return out;
  }

  /** Forget every chain shown (and the ones not yet shown). Returns how many were listed. */
  clear(): number {
    const n = this.list().length;
    this.chains.clear();
    this.onChange();
    return n;
  }

  get size(): number {
    return this.chains.size;
  }

  private touch(chain_id: string): Entry {
    let e = this.chains.get(chain_id);
    if (e) this.chains.delete(chain_id);
    else e = { chain_id, hops: new Map(), last_active: 0 };
    e.last_active = this.now();
    this.chains.set(chain_id, e);
    return e;
  }

  /** Over the bound: drop the least recently active chain, preferring ones that never composed. */
  private evict(): void {
    while (this.chains.size > this.limit) {
      // Never the entry just touched (the newest): its next hop may be the one that makes it compose.
      const newest = [...this.chains.keys()].pop();
      let victim: string | undefined;
      for (const e of this.chains.values()) {
        if (e.hops.size < 2 && e.chain_id !== newest) {
          victim = e.chain_id;
          break;
        }
      }
      victim ??= this.chains.keys().next().value;
      if (victim === undefined) return;
      this.chains.delete(victim);
    }
  }
}
