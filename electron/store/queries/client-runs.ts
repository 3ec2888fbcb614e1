// The runs of connected clients' sessions (created_by `client:<name>:<session id>`): which are still running and
// when each last had a call (the idle end), and the last call of a run (the Runs list shows it).
import { stmt, type Db } from '../db.js';

export interface RunningClientRun {
  id: string;
  created_by: string;
  /** The newest of the run's own change and its rows' (ms). */
  last_at: number;
  /** Whether a row is still ready, parked or running (a hook is waiting on it). */
  live: number;
}

export function listRunningClientRuns(db: Db): RunningClientRun[] {
  return stmt<RunningClientRun>(
    db,
    `SELECT r.id, r.created_by,
       MAX(r.updated_at, COALESCE((SELECT MAX(w.updated_at) FROM rows w WHERE w.run_id = r.id), 0)) AS last_at,
       EXISTS (SELECT 1 FROM rows l WHERE l.run_id = r.id AND l.state IN ('ready','needs_approval','running')) AS live
     FROM runs r WHERE r.status = 'running' AND r.created_by LIKE 'client:%'`,
  ).all();
}

/** The run's newest row: the tool as NEXUS judged it, and when it came (ms). */
export function lastCallOfRun(db: Db, run_id: string): { tool: string; created_at: number } | null {
  const r = stmt<{ tool: string; created_at: number }>(db, 'SELECT tool, created_at FROM rows WHERE run_id = ? ORDER BY seq DESC LIMIT 1').get(run_id);
  return r ?? null;
}
