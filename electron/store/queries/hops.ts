// A governed hop's statements (the gate's hot path: governance/gate.ts): where the run sits in its chain, and
// the hop's number folded with its hold lookup. Both come back as few values as the gate uses: better-sqlite3
// builds a row object at about a microsecond a column, so the place is one JSON text, parsed once.
import { stmt, type Db } from '../db.js';

/** Where a governed run acts from: its chain (and the agents it touched so far) and its own position. */
export interface GatePlace {
  chain_id: string;
  touched: string[];
  agent: string;
  depth: number;
  path: string[];
}

const PLACE = `SELECT json_array(m.chain_id, json(c.touched_json), m.agent, m.depth, json(m.path_json))
               FROM chain_runs m JOIN chains c ON c.id = m.chain_id WHERE m.`;
const PLACE_BY_RUN = `${PLACE}run_id = ?`;
const PLACE_BY_HANDOFF = `${PLACE}handoff_row_id = ?`;

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function toPlace(text: unknown): GatePlace | null {
  if (typeof text !== 'string') return null;
  const v: unknown = JSON.parse(text);
  if (!Array.isArray(v) || v.length !== 5) throw new Error('a chain position in the store is malformed');
  const [chain_id, touched, agent, depth, path]: unknown[] = v;
  if (typeof chain_id !== 'string' || !strings(touched) || typeof agent !== 'string' || typeof depth !== 'number' || !strings(path))
    throw new Error('a chain position in the store is malformed');
  return { chain_id, touched, agent, depth, path };
}

/**
 * The chain position of a run, or null when no chain started it. A run whose membership was written before the
 * run existed is found through the hand-off row that is its parent (as chains.ts placeOf).
 */
export function gatePlace(db: Db, run: { id: string; parent?: { row_id: string } | null }): GatePlace | null {
  const byRun = toPlace(stmt(db, PLACE_BY_RUN).pluck().get(run.id));
  if (byRun || !run.parent) return byRun;
  return toPlace(stmt(db, PLACE_BY_HANDOFF).pluck().get(run.parent.row_id));
}

/**
 * The next hop number of a chain, allocated in the same statement that checks that no live hold (pending,
 * approved, or refused) is bound to `fingerprint`: one statement for the common hop instead of two. Null when
 * nothing was allocated: a live hold exists (its identical retry is that hop again), or there is no such chain.
 */
export function nextHopUnlessHeld(db: Db, a: { chain_id: string; fingerprint: string; now: number }): number | null {
  const n: unknown = stmt(
    db,
    `UPDATE chains SET hop_count = hop_count + 1, updated_at = ? WHERE id = ?
       AND NOT EXISTS (SELECT 1 FROM hop_holds WHERE fingerprint = ? AND status IN ('pending','approved','refused'))
     RETURNING hop_count`,
  )
    .pluck()
    .get(a.now, a.chain_id, a.fingerprint);
  return typeof n === 'number' ? n : null;
}
