// A governed hop's statements (the gate's hot path: governance/gate.ts): where the run sits in its chain, where
// its hop numbering goes on from, and whether the chain holds anything. They return as few values as the gate
// uses: better-sqlite3 builds a row object at about a microsecond a column, so the place is one JSON text.
import { stmt, watchedReadBy, type Db } from '../db.js';

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
 * The highest hop number a chain has handed out, as the store holds it: its counter (hop 1 is the hand-off that
 * began it; hops counted before migration 010 are there too) or the highest hop recorded on a member run's row.
 * Null when there is no such chain. Read once per chain by the gate's in-memory count (governance/hop-numbers.ts).
 */
export function chainHopFloor(db: Db, chain_id: string): number | null {
  const n: unknown = stmt(
    db,
    `SELECT max(c.hop_count, coalesce((SELECT max(r.hop) FROM chain_runs m JOIN rows r ON r.run_id = m.run_id WHERE m.chain_id = c.id), 0))
     FROM chains c WHERE c.id = ?`,
  )
    .pluck()
    .get(chain_id);
  return typeof n === 'number' ? n : null;
}

/**
 * Whether a chain holds a hold that still binds a hop (pending, approved or refused). Answered from memory until a
 * hold is written (every writer in holds.ts says so): most chains hold none, and then the gate pays neither the
 * fingerprint nor the lookup of its hold.
 */
export const chainHasLiveHolds = watchedReadBy(
  (db: Db, chain_id: string): boolean =>
    stmt(db, "SELECT EXISTS (SELECT 1 FROM hop_holds WHERE chain_id = ? AND status IN ('pending','approved','refused'))").pluck().get(chain_id) === 1,
);

/** A team desk's record reads a chain's hop count from the chain (migration 009): kept there while joined. */
export function countHopForDesk(db: Db, a: { chain_id: string; hop: number; now: number }): void {
  stmt(db, 'UPDATE chains SET hop_count = max(hop_count, ?), updated_at = ? WHERE id = ?').run(a.hop, a.now, a.chain_id);
}
