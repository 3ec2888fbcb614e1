// Run events: the durable timeline `runs show` reads (approval_required, approvals, expiries, stops, ...).
import { stmt, type Db } from '../db.js';
import { isoOr, parseJson, toJson } from './util.js';

export interface RunEventView {
  type: string;
  at: string;
  data: unknown;
}

export function insertRunEvent(db: Db, a: { run_id: string; type: string; data?: unknown; now: number }): void {
  stmt(db, 'INSERT INTO run_events (run_id, type, data_json, at) VALUES (?, ?, ?, ?)').run(
    a.run_id,
    a.type,
    a.data === undefined ? null : toJson(a.data),
    a.now,
  );
}

export function listRunEvents(db: Db, run_id: string): RunEventView[] {
  const rows = stmt<{
    type: string;
    data_json: string | null;
    at: number;
  }>(db, 'SELECT type, data_json, at FROM run_events WHERE run_id = ? ORDER BY seq').all(run_id);
  return rows.map((r) => ({ type: r.type, at: isoOr(r.at), data: parseJson(r.data_json, null) }));
}

/** A run event with its place in the timeline (`seq`): the cursor of the page that ends with it. */
export interface RunEventEntry extends RunEventView {
  seq: number;
}

/** A page of a run's events in order, after timeline position `after` (keyset on run_events_by_run). */
export function listRunEventsPage(db: Db, a: { run_id: string; limit: number; after?: number }): RunEventEntry[] {
  const rows = stmt<{
    seq: number;
    type: string;
    data_json: string | null;
    at: number;
  }>(db, 'SELECT seq, type, data_json, at FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(a.run_id, a.after ?? 0, a.limit);
  return rows.map((r) => ({ seq: r.seq, type: r.type, at: isoOr(r.at), data: parseJson(r.data_json, null) }));
}
