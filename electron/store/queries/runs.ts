// Runs: one agent turn or a person's standalone run, with mode, rules and hooks frozen at creation.
import { stmt, type Db } from '../db.js';
import type { Run } from '../records.js';
import type { RunStatus } from '../../../shared/types.js';
import { iso, isoOr, parseJson, toJson } from './util.js';

interface RunRecord {
  id: string;
  agent: string | null;
  status: RunStatus;
  mode: Run['mode'];
  rules_json: string;
  hooks_json: string;
  workspace: string;
  prompt: string | null;
  final_answer: string | null;
  error: string | null;
  parent_run_id: string | null;
  parent_row_id: string | null;
  chain_id: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
}

const toRun = (r: RunRecord): Run => ({
  id: r.id,
  agent: r.agent,
  status: r.status,
  mode: r.mode,
  rules: parseJson(r.rules_json, []),
  hooks: parseJson(r.hooks_json, {}),
  workspace: r.workspace,
  prompt: r.prompt,
  final_answer: r.final_answer,
  error: r.error,
  parent: r.parent_run_id && r.parent_row_id ? { run_id: r.parent_run_id, row_id: r.parent_row_id } : null,
  chain_id: r.chain_id,
  created_by: r.created_by,
  created_at: isoOr(r.created_at),
  updated_at: isoOr(r.updated_at),
  ended_at: iso(r.ended_at),
});

export interface InsertRun {
  id: string;
  agent: string | null;
  mode: Run['mode'];
  rules: unknown;
  hooks: unknown;
  workspace: string;
  prompt: string | null;
  parent: { run_id: string; row_id: string } | null;
  chain_id: string | null;
  created_by: string | null;
  now: number;
}

/**
 * Runs as last read, per connection. This connection is the only writer and every write to `runs` goes through
 * this file, which forgets the run it writes; so a cached run is the stored one. Filled only outside a
 * transaction (a rolled-back write must never be remembered), bounded, and handed out as copies.
 */
const cached = new WeakMap<Db, Map<string, Run>>();
const CACHE_MAX = 2048;
const forget = (db: Db, id: string) => cached.get(db)?.delete(id);

export function insertRun(db: Db, a: InsertRun): void {
  forget(db, a.id);
  stmt(
    db,
    `INSERT INTO runs (id, agent, status, mode, rules_json, hooks_json, workspace, prompt, parent_run_id, parent_row_id, chain_id, created_by, created_at, updated_at)
     VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.id,
    a.agent,
    a.mode,
    toJson(a.rules),
    toJson(a.hooks),
    a.workspace,
    a.prompt,
    a.parent?.run_id ?? null,
    a.parent?.row_id ?? null,
    a.chain_id,
    a.created_by,
    a.now,
    a.now,
  );
}

export function getRun(db: Db, id: string): Run | null {
  let cache = cached.get(db);
  const hit = cache?.get(id);
  if (hit) return { ...hit };
  const r = stmt<RunRecord>(db, 'SELECT * FROM runs WHERE id = ?').get(id);
  if (!r) return null;
  const run = toRun(r);
  if (!db.inTransaction) {
    if (!cache) cached.set(db, (cache = new Map()));
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(id, run);
  }
  return { ...run };
}

export function listRuns(db: Db, args: { limit: number; agent?: string; status?: RunStatus }): Run[] {
  if (args.agent !== undefined && args.status !== undefined) {
    return stmt<RunRecord>(db, 'SELECT * FROM runs WHERE agent = ? AND status = ? ORDER BY created_at DESC, rowid DESC LIMIT ?')
      .all(args.agent, args.status, args.limit)
      .map(toRun);
  }
  if (args.agent !== undefined) {
    return stmt<RunRecord>(db, 'SELECT * FROM runs WHERE agent = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').all(args.agent, args.limit).map(toRun);
  }
  if (args.status !== undefined) {
    return stmt<RunRecord>(db, 'SELECT * FROM runs WHERE status = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').all(args.status, args.limit).map(toRun);
  }
  return stmt<RunRecord>(db, 'SELECT * FROM runs ORDER BY created_at DESC, rowid DESC LIMIT ?').all(args.limit).map(toRun);
}

/** The ids of every running run, oldest first (Stop all stops a delegator before the runs it started). */
export function listRunningRunIds(db: Db): string[] {
  return stmt<{ id: string }>(db, "SELECT id FROM runs WHERE status = 'running' ORDER BY created_at, rowid")
    .all()
    .map((r) => r.id);
}

/** The id of the newest run recorded with this `created_by` (a client session's key), or null. */
export function newestRunCreatedBy(db: Db, created_by: string): string | null {
  return stmt<{ id: string }>(db, 'SELECT id FROM runs WHERE created_by = ? ORDER BY created_at DESC, rowid DESC LIMIT 1').get(created_by)?.id ?? null;
}

/** Where a page cursor (the id of the last run of the previous page) stands, or null: no run has that id. */
function runKey(db: Db, id: string): { created_at: number; rid: number } | null {
  return stmt<{ created_at: number; rid: number }>(db, 'SELECT created_at, rowid AS rid FROM runs WHERE id = ?').get(id) ?? null;
}

/** Which runs a page lists: one agent, one status, one connected client's sessions (`none`: runs of no client). */
export interface RunsFilter {
  agent?: string;
  status?: RunStatus;
  client?: string;
}

/**
 * A page of runs, newest first, after the run `cursor` (keyset paging on (created_at, rowid): no OFFSET, and
 * runs created meanwhile do not shift the page). Null when no run has the cursor's id.
 */
export function listRunsPage(db: Db, a: { limit: number; cursor?: string } & RunsFilter): Run[] | null {
  const at = a.cursor === undefined ? null : runKey(db, a.cursor);
  if (a.cursor !== undefined && !at) return null;
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    args.push(...values);
  };
  if (a.agent !== undefined) add('agent = ?', a.agent);
  if (a.status !== undefined) add('status = ?', a.status);
  // A client's run is created by `client:<name>:<session>` (kernel/client-runs.ts): a prefix, compared exactly.
  if (a.client === 'none') add("(created_by IS NULL OR substr(created_by, 1, 7) <> 'client:')");
  else if (a.client !== undefined) add('substr(created_by, 1, ?) = ?', `client:${a.client}:`.length, `client:${a.client}:`);
  // `created_at <= ?` is the index range; the OR breaks ties inside one millisecond by rowid.
  if (at) add('created_at <= ? AND (created_at < ? OR rowid < ?)', at.created_at, at.created_at, at.rid);
  const sql = `SELECT * FROM runs WHERE ${where.length ? where.join(' AND ') : '1'} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
  return stmt<RunRecord>(db, sql)
    .all(...args, a.limit)
    .map(toRun);
}

export function countRunsInFlight(db: Db): number {
  return (stmt(db, "SELECT COUNT(*) AS n FROM runs WHERE status = 'running'").get() as { n: number }).n;
}

/** End a run that is still running. Returns false when it had already ended (first ending wins). */
export function endRun(
  db: Db,
  a: { id: string; status: Exclude<RunStatus, 'running'>; final_answer?: string | null; error?: string | null; now: number },
): boolean {
  forget(db, a.id);
  const res = stmt(
    db,
    `UPDATE runs SET status = ?, final_answer = COALESCE(?, final_answer), error = COALESCE(?, error), updated_at = ?, ended_at = ?
     WHERE id = ? AND status = 'running'`,
  ).run(a.status, a.final_answer ?? null, a.error ?? null, a.now, a.now, a.id);
  return res.changes === 1;
}

/** Re-open an ended run for another turn (turns' continueRun). */
export function reopenRun(db: Db, a: { id: string; now: number }): boolean {
  forget(db, a.id);
  return stmt(db, "UPDATE runs SET status = 'running', ended_at = NULL, updated_at = ? WHERE id = ? AND status != 'running'").run(a.now, a.id).changes === 1;
}

export function touchRun(db: Db, id: string, now: number): void {
  forget(db, id);
  stmt(db, 'UPDATE runs SET updated_at = ? WHERE id = ?').run(now, id);
}
