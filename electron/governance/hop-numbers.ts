// A chain's hop numbers (DESIGN §3). Counted in memory after one read of what the store holds: this process is
// the store's one writer (the data-dir lock), as it is for a run's row numbers. The number is durable on the
// hop's row (rows.hop, which the kernel writes in the transaction that records the row's decision), so a
// restart goes on from the highest one (chainHopFloor). A number handed out in a transaction or savepoint that
// rolls back is handed out again (onRollback): a hop that never happened leaves no gap and no double.
import { onRollback, type Db } from '../store/db.js';
import { chainHopFloor } from '../store/queries/hops.js';

/** How many chains' counts are remembered; one forgotten is read again from the store (exact, only slower). */
const REMEMBERED = 4096;

export class HopNumbers {
  private readonly last = new Map<string, number>();

  /** The next hop number of `chain_id`, or null when there is no such chain. Call inside the hop's transaction. */
  next(db: Db, chain_id: string): number | null {
    const before = this.last.get(chain_id);
    const base = before ?? chainHopFloor(db, chain_id);
    if (base === null) return null;
    const n = base + 1;
    if (before === undefined && this.last.size >= REMEMBERED) this.last.clear();
    this.last.set(chain_id, n);
    onRollback(db, before === undefined ? () => this.last.delete(chain_id) : () => this.last.set(chain_id, before));
    return n;
  }
}
