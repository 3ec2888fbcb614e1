// Recent chains (Settings ▸ Agents ▸ Orchestration ▸ Recent chains; DESIGN §3, seed 003 "Where to see what a
// chain did"): in memory, this app run only, bounded, most recently active first, only chains with more than
// one recorded hop. Refusals and denials are recorded exactly like admissions. A waiting hop switches to the
// person's answer the moment it is given (`setVerdict`), not when the agent retries. Clear forgets; it stops
// nothing and changes no limit. It records whether orchestration is on or off.
import type { ChainHopView, ChainView, HopCode, HopVerdict } from '../../shared/types.js';

export const DEFAULT_RECENT_CHAINS_LIMIT = 50;
/**
 * How many chains that hold only their hop 1 (a hand-off whose recipient has not acted yet) are remembered.
 * Kept apart from the listed chains: a burst of hand-offs must not push listed chains out, and a hand-off's
 * own next hop must not push out the hand-offs still waiting for theirs (which emptied the list in a burst).
 */
export const DEFAULT_PENDING_LIMIT = 1000;

interface Entry {
  chain_id: string;
  hops: Map<number, ChainHopView>;
  /** The agents in the order they first acted: a hop's agent, or an agent that answered without a tool call. */
  actors: string[];
  last_active: number;
}

export class RecentChains {
  /** Chains that composed (a hop numbered 2 or more). Map order = activity order: the most recent is last. */
  private chains = new Map<string, Entry>();
  /** Chains holding only hop 1, oldest first: remembered so their hop 1 is listed once they compose. */
  private pending = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly onChange: () => void = () => {},
    readonly limit = DEFAULT_RECENT_CHAINS_LIMIT,
    readonly pendingLimit = DEFAULT_PENDING_LIMIT,
  ) {}

  /** Record (or replace) one hop of a chain. */
  recordHop(chain_id: string, hop: Omit<ChainHopView, 'at'> & { at?: string }): void {
    const view = viewOf(hop, hop.at ?? new Date(this.now()).toISOString());
    const listed = this.chains.has(chain_id);
    if (!listed && hop.hop < 2) {
      // Not composed yet: remembered apart, bounded apart, never listed.
      let e = this.pending.get(chain_id);
      if (e) this.pending.delete(chain_id);
      else e = { chain_id, hops: new Map(), actors: [], last_active: 0 };
      e.last_active = this.now();
      e.hops.set(hop.hop, view);
      acted(e, hop.agent);
      this.pending.set(chain_id, e);
      while (this.pending.size > this.pendingLimit) this.pending.delete(this.pending.keys().next().value!);
      return;
    }
    // A hop numbered 2 or more means the chain composed: it is listed, with its hop 1 if still remembered.
    const e = this.touch(chain_id);
    e.hops.set(hop.hop, view);
    acted(e, hop.agent);
    this.evict();
    this.onChange();
  }

  /**
   * An agent of the chain acted without a hop (it answered in words, no tool call): it is one of the chain's
   * agents all the same. Nothing is listed for a chain not remembered; a listed chain becomes the most active.
   */
  noteActed(chain_id: string, agent: string): void {
    const pending = this.pending.get(chain_id);
    if (pending) {
      acted(pending, agent);
      return;
    }
    const e = this.chains.get(chain_id);
    if (!e || e.actors.includes(agent)) return;
    acted(this.touch(chain_id), agent);
    this.onChange();
  }

  /** A person answered (or the gate re-decided) a recorded hop: its verdict switches now. */
  setVerdict(chain_id: string, hop: number, verdict: HopVerdict, code?: HopCode): boolean {
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

  /** Most recently active first; only chains that composed (more than one hop). */
  list(): ChainView[] {
    const out: ChainView[] = [];
    for (const e of [...this.chains.values()].reverse()) {
      const hops = [...e.hops.values()].sort((a, b) => a.hop - b.hop);
      out.push({ chain_id: e.chain_id, agents: [...e.actors], hops, last_active_at: new Date(e.last_active).toISOString() });
    }
    return out;
  }

  /** Forget every chain shown (and the ones not yet shown). Returns how many were listed. */
  clear(): number {
    const n = this.chains.size;
    this.chains.clear();
    this.pending.clear();
    this.onChange();
    return n;
  }

  /** Everything remembered: listed chains and hand-offs waiting for their next hop. */
  get size(): number {
    return this.chains.size + this.pending.size;
  }

  /** The chain's entry, now the most recently active; a remembered hop 1 comes with it. */
  private touch(chain_id: string): Entry {
    let e = this.chains.get(chain_id);
    if (e) this.chains.delete(chain_id);
    else {
      e = this.pending.get(chain_id) ?? { chain_id, hops: new Map(), actors: [], last_active: 0 };
      this.pending.delete(chain_id);
    }
    e.last_active = this.now();
    this.chains.set(chain_id, e);
    return e;
  }

  /** Over the bound: drop the least recently active listed chain (never the one just touched: it is last). */
  private evict(): void {
    while (this.chains.size > this.limit) this.chains.delete(this.chains.keys().next().value!);
  }
}

/**
 * A hop as listed: its own fields only (a caller's record may carry more, such as its chain), no key left
 * undefined. Built field by field: copying the record and deleting keys cost every governed hop.
 */
function viewOf(h: Omit<ChainHopView, 'at'>, at: string): ChainHopView {
  const view: ChainHopView = { hop: h.hop, agent: h.agent, action: h.action, target: h.target, verdict: h.verdict, at };
  if (h.code !== undefined) view.code = h.code;
  if (h.request_id !== undefined) view.request_id = h.request_id;
  return view;
}

function acted(e: Entry, agent: string): void {
  if (!e.actors.includes(agent)) e.actors.push(agent);
}
