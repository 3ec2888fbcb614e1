// Delegated tasks and their evidence (migration 003). A task completes only once its acceptance check has
// passed; every check run is kept as evidence, queryable per task (seed 003 "Finishing is an evidence-gated step").
import { randomBytes } from 'node:crypto';
import { stmt, type Db } from '../db.js';

export type TaskStatus = 'open' | 'completed' | 'failed' | 'canceled';

export interface Task {
  id: string;
  status: TaskStatus;
  delegator: string;
  delegator_run_id: string;
  delegator_row_id: string;
  recipient: string;
  task: string;
  check_command: string;
  check_timeout_s: number | null;
  run_id: string | null;
  chain_id: string | null;
  refusals: number;
  answer: string | null;
  created_at: number;
  updated_at: number;
}

export interface Evidence {
  command: string;
  exit_code: number | null;
  passed: boolean;
  output: string;
  duration_ms: number;
  at: number;
  row_id: string | null;
}

export const newTaskId = (): string => `task_${randomBytes(8).toString('hex')}`;

export function insertTask(db: Db, t: Omit<Task, 'status' | 'refusals' | 'answer' | 'updated_at' | 'run_id'>): void {
  stmt(
    db,
    `INSERT INTO tasks (id, status, delegator, delegator_run_id, delegator_row_id, recipient, task, check_command, check_timeout_s, run_id, chain_id, refusals, answer, created_at, updated_at)
     VALUES (?, 'open', ?, ?, ?, ?, ?, ?, ?, NULL, ?, 0, NULL, ?, ?)`,
  ).run(
    t.id,
    t.delegator,
    t.delegator_run_id,
    t.delegator_row_id,
    t.recipient,
    t.task,
    t.check_command,
    t.check_timeout_s,
    t.chain_id,
    t.created_at,
    t.created_at,
  );
}

export function getTask(db: Db, id: string): Task | null {
  return stmt<Task>(db, 'SELECT * FROM tasks WHERE id = ?').get(id) ?? null;
}

const LAST_CHECK = '(SELECT e.exit_code FROM task_evidence e WHERE e.task_id = t.id ORDER BY e.seq DESC LIMIT 1) AS last_check_exit_code';

/**
 * Tasks newest first, each with the exit code of its last acceptance check (null: none ran, or no code): a
 * page after the task `cursor` (keyset on (created_at, rowid) through
 * tasks_by_created). Null when no task has the cursor's id.
 */
export function listTasksPage(db: Db, a: { limit: number; cursor?: string }): Array<Task & { last_check_exit_code: number | null }> | null {
  type Listed = Task & { last_check_exit_code: number | null };
  if (a.cursor === undefined) return stmt<Listed>(db, `SELECT t.*, ${LAST_CHECK} FROM tasks t ORDER BY t.created_at DESC, t.rowid DESC LIMIT ?`).all(a.limit);
  const at = stmt<{ created_at: number; rid: number }>(db, 'SELECT created_at, rowid AS rid FROM tasks WHERE id = ?').get(a.cursor);
  if (!at) return null;
  return stmt<Listed>(
    db,
    `SELECT t.*, ${LAST_CHECK} FROM tasks t WHERE t.created_at <= ? AND (t.created_at < ? OR t.rowid < ?) ORDER BY t.created_at DESC, t.rowid DESC LIMIT ?`,
  ).all(at.created_at, at.created_at, at.rid, a.limit);
}

export function openTaskOfRun(db: Db, run_id: string): Task | null {
  return stmt<Task>(db, "SELECT * FROM tasks WHERE run_id = ? AND status = 'open' ORDER BY created_at DESC LIMIT 1").get(run_id) ?? null;
}

export function setTaskRun(db: Db, id: string, run_id: string, now: number): void {
  stmt(db, 'UPDATE tasks SET run_id = ?, updated_at = ? WHERE id = ?').run(run_id, now, id);
}

/** open → completed | failed | canceled. False when the task was no longer open. */
export function closeTask(db: Db, id: string, status: Exclude<TaskStatus, 'open'>, answer: string | null, now: number): boolean {
  return (
    stmt(db, "UPDATE tasks SET status = ?, answer = COALESCE(?, answer), updated_at = ? WHERE id = ? AND status = 'open'").run(status, answer, now, id)
      .changes === 1
  );
}

/** One more refusal; returns the new count. */
export function addRefusal(db: Db, id: string, now: number): number {
  return (stmt(db, 'UPDATE tasks SET refusals = refusals + 1, updated_at = ? WHERE id = ? RETURNING refusals').get(now, id) as { refusals: number }).refusals;
}

export function addEvidence(db: Db, task_id: string, e: Evidence): void {
  stmt(db, 'INSERT INTO task_evidence (task_id, row_id, command, exit_code, passed, output, duration_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    task_id,
    e.row_id,
    e.command,
    e.exit_code,
    e.passed ? 1 : 0,
    e.output,
    e.duration_ms,
    e.at,
  );
}

export function listEvidence(db: Db, task_id: string): Evidence[] {
  return stmt<Omit<Evidence, 'passed'> & { passed: number }>(
    db,
    'SELECT command, exit_code, passed, output, duration_ms, at, row_id FROM task_evidence WHERE task_id = ? ORDER BY seq',
  )
    .all(task_id)
    .map((r) => ({ ...r, passed: r.passed === 1 }));
}

/** Every open task: its id and the delegate_task row that waits on it (recovery after a restart). */
export function listOpenTasks(db: Db): { id: string; delegator_row_id: string }[] {
  return stmt<{ id: string; delegator_row_id: string }>(db, "SELECT id, delegator_row_id FROM tasks WHERE status = 'open'").all();
}

/** The run whose open task `run_id` works on (the newest), or undefined: nobody delegated to that run. */
export function delegatorRunOf(db: Db, run_id: string): string | undefined {
  return stmt<{ delegator_run_id: string }>(db, "SELECT delegator_run_id FROM tasks WHERE run_id = ? AND status = 'open' ORDER BY created_at DESC LIMIT 1").get(
    run_id,
  )?.delegator_run_id;
}
