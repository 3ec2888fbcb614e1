// Rows: one tool call each, crossing ready → needs_approval → running → succeeded|failed|timed_out|canceled.
// Here: writing a row and reading rows; its state changes (guarded UPDATEs, one winner) are row-updates.ts.
import { stmt, type Db } from '../db.js';
import type { Row } from '../records.js';
import type { EffectProfile, ToolResult } from '../../../shared/types.js';
import { iso, isoOr, parseJson, toJson } from './util.js';

/** Columns stored as the Row carries them. */
type RowColumn =
  'id' | 'run_id' | 'seq' | 'origin' | 'wire_tool' | 'tool' | 'runner' | 'state' | 'round' | 'on_failure' | 'granted_by' | 'approved_by' | 'addressee';

/** A `rows` record: the Row's plain columns, JSON columns as text, times as epoch ms. */
interface RowRecord extends Pick<Row, RowColumn> {
  input_json: string;
  matched_json: string | null;
  effect_json: string | null;
  expires_at: number | null;
  error_code: string | null;
  error_detail: string | null;
  result_json: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ended_at: number | null;
}

const toRow = (r: RowRecord): Row => ({
  id: r.id,
  run_id: r.run_id,
  seq: r.seq,
  origin: r.origin,
  wire_tool: r.wire_tool,
  tool: r.tool,
  runner: r.runner,
  input: parseJson(r.input_json, null),
  state: r.state,
  round: r.round,
  on_failure: r.on_failure,
  granted_by: r.granted_by,
  approved_by: r.approved_by,
  matched: parseJson(r.matched_json, []),
  addressee: r.addressee,
  effect: parseJson<EffectProfile | null>(r.effect_json, null),
  expires_at: iso(r.expires_at),
  error: r.error_code ? { code: r.error_code, detail: r.error_detail ?? '' } : null,
  result: parseJson<ToolResult | null>(r.result_json, null),
  created_at: isoOr(r.created_at),
  updated_at: isoOr(r.updated_at),
  started_at: iso(r.started_at),
  ended_at: iso(r.ended_at),
});

/** What a new row is inserted with (it starts at `ready`). */
export interface InsertRow extends Pick<Row, 'id' | 'run_id' | 'origin' | 'wire_tool' | 'tool' | 'runner' | 'input' | 'round' | 'on_failure'> {
  now: number;
}

export function maxSeq(db: Db, run_id: string): number {
  return (stmt(db, 'SELECT COALESCE(MAX(seq), 0) AS n FROM rows WHERE run_id = ?').get(run_id) as { n: number }).n;
}

/** Insert a row at `ready` (the stage has not decided yet) as number `seq` of its run (default: the next). */
export function insertRow(db: Db, a: InsertRow, seq: number = maxSeq(db, a.run_id) + 1): number {
  stmt(
    db,
    `INSERT INTO rows (id, run_id, seq, origin, wire_tool, tool, runner, input_json, state, round, on_failure, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'ready', ?, ?, ?, ?)`,
  ).run(a.id, a.run_id, seq, a.origin, a.wire_tool, a.tool, a.runner, toJson(a.input), a.round, a.on_failure, a.now, a.now);
  return seq;
}

export function getRow(db: Db, id: string): Row | null {
  const r = stmt<RowRecord>(db, 'SELECT * FROM rows WHERE id = ?').get(id);
  return r ? toRow(r) : null;
}

export function listRowsOfRun(db: Db, run_id: string): Row[] {
  return stmt<RowRecord>(db, 'SELECT * FROM rows WHERE run_id = ? ORDER BY seq').all(run_id).map(toRow);
}

/**
 * A page of a run's rows in order, after the row `cursor` (its id; keyset on seq through rows_by_run).
 * Null when the cursor is not a row of this run.
 */
export function listRowsOfRunPage(db: Db, a: { run_id: string; limit: number; cursor?: string }): Row[] | null {
  let after = 0;
  if (a.cursor !== undefined) {
    const at = stmt<{ seq: number }>(db, 'SELECT seq FROM rows WHERE id = ? AND run_id = ?').get(a.cursor, a.run_id);
    if (!at) return null;
    after = at.seq;
  }
  return stmt<RowRecord>(db, 'SELECT * FROM rows WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(a.run_id, after, a.limit).map(toRow);
}

/** Every parked row's id and deadline (epoch ms; null: none), earliest first: read from rows_parked_deadline alone. */
export function listParkedDeadlines(db: Db): { id: string; expires_at: number | null }[] {
  return stmt<{
    id: string;
    expires_at: number | null;
  }>(db, "SELECT id, expires_at FROM rows WHERE state = 'needs_approval' ORDER BY expires_at, id").all();
}

/** How many rows of one run wait on a person (through the partial index rows_parked_by_run). */
export function countParkedOfRun(db: Db, run_id: string): number {
  return (stmt(db, "SELECT COUNT(*) AS n FROM rows WHERE run_id = ? AND state = 'needs_approval'").get(run_id) as { n: number }).n;
}

/** The states a row can still leave; `rows_live` indexes exactly these. */
export type LiveRowState = 'ready' | 'needs_approval' | 'running';
// SQLite uses a partial index only when the query's WHERE implies the index's WHERE, and `state = ?` with a
// bound parameter implies nothing at prepare time: every live-state query repeats the index's condition.
const LIVE = "state IN ('ready','needs_approval','running')";

export function listRowsInState(db: Db, state: LiveRowState): Row[] {
  return stmt<RowRecord>(db, `SELECT * FROM rows WHERE ${LIVE} AND state = ? ORDER BY created_at, seq`).all(state).map(toRow);
}

/**
 * The parked calls of the runs whose created_by starts with `prefix` (connected clients' runs), id and run only:
 * read at start-up, when a store may hold thousands of parked rows of NEXUS's own agents to build no object for.
 */
export function listParkedRowsOfCreator(db: Db, prefix: string): Array<{ id: string; run_id: string }> {
  return stmt<{ id: string; run_id: string }>(
    db,
    `SELECT r.id, r.run_id FROM rows r JOIN runs u ON u.id = r.run_id
      WHERE r.state = 'needs_approval' AND substr(u.created_by, 1, length(?)) = ? ORDER BY r.created_at, r.seq`,
  ).all(prefix, prefix);
}

export function listLiveRowsOfRun(db: Db, run_id: string): Row[] {
  return stmt<RowRecord>(db, `SELECT * FROM rows WHERE run_id = ? AND ${LIVE} ORDER BY seq`).all(run_id).map(toRow);
}

export function countRowsInState(db: Db, state: LiveRowState): number {
  return (stmt(db, `SELECT COUNT(*) AS n FROM rows WHERE ${LIVE} AND state = ?`).get(state) as { n: number }).n;
}

/** The row insertRow just wrote, in memory. */
export function insertedRow(a: InsertRow, seq: number): Row {
  const at = isoOr(a.now);
  return {
    id: a.id,
    run_id: a.run_id,
    seq,
    origin: a.origin,
    wire_tool: a.wire_tool,
    tool: a.tool,
    runner: a.runner,
    input: a.input,
    state: 'ready',
    round: a.round,
    on_failure: a.on_failure,
    granted_by: null,
    approved_by: null,
    matched: [],
    addressee: null,
    effect: null,
    expires_at: null,
    error: null,
    result: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    ended_at: null,
  };
}

/** Held rows of an agent's runs addressed to `addressee`. */
export function listParkedRowsAddressedTo(db: Db, addressee: string): Row[] {
  return stmt<RowRecord>(db, `SELECT * FROM rows WHERE ${LIVE} AND state = 'needs_approval' AND addressee = ? ORDER BY created_at`).all(addressee).map(toRow);
}
