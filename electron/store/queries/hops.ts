// The governed hop's counter, folded with its hold lookup (the gate's hot path: governance/gate.ts).
import { stmt, type Db } from '../db.js';

/**
 * The next hop number of a chain, allocated in the same statement that checks that no live hold (pending,
 * approved, or refused) is bound to `fingerprint`: one statement for the common hop instead of two. Null when
 * nothing was allocated: a live hold exists (its identical retry is that hop again), or there is no such chain.
 */
export function nextHopUnlessHeld(db: Db, a: { chain_id: string; fingerprint: string; now: number }): number | null {
  const r: unknown = stmt(
    db,
    `UPDATE chains SET hop_count = hop_count + 1, updated_at = ? WHERE id = ?
       AND NOT EXISTS (SELECT 1 FROM hop_holds WHERE fingerprint = ? AND status IN ('pending','approved','refused'))
     RETURNING hop_count`,
  ).get(a.now, a.chain_id, a.fingerprint);
  return typeof r === 'object' && r !== null && 'hop_count' in r && typeof r.hop_count === 'number' ? r.hop_count : null;
}
