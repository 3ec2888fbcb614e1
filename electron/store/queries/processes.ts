// Process groups rows started (migration 005): recorded before the command runs, deleted once reaped.
import { stmt, type Db } from '../db.js';

export interface ProcessRecord {
  pgid: number;
  start_time: string;
  row_id: string | null;
  what: string;
}

export function insertProcess(db: Db, p: ProcessRecord & { now: number }): void {
  stmt(db, 'INSERT OR REPLACE INTO processes (pgid, start_time, row_id, what, created_at) VALUES (?, ?, ?, ?, ?)').run(
    p.pgid,
    p.start_time,
    p.row_id,
    p.what,
    p.now,
  );
}

export function deleteProcess(db: Db, pgid: number, start_time: string): void {
  stmt(db, 'DELETE FROM processes WHERE pgid = ? AND start_time = ?').run(pgid, start_time);
}

export function listProcesses(db: Db): ProcessRecord[] {
  return stmt<ProcessRecord>(db, 'SELECT pgid, start_time, row_id, what FROM processes ORDER BY created_at').all();
}

export function clearProcesses(db: Db): void {
  stmt(db, 'DELETE FROM processes').run();
}
