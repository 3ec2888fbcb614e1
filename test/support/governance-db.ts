// Test helpers for governance's own store tests: a fresh database with the governance schema only.
import Database from 'better-sqlite3';
import m003 from '../../electron/store/migrations/003_governance.js';
import m004 from '../../electron/store/migrations/004_entitlement_source.js';
import type { Db } from '../../electron/store/db.js';

export function governanceOnlyDb(): Db {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  m003.up(db);
  m004.up(db);
  return db;
}

// A chain laid out in the store row by row, as the store tests of hop numbering read it (raw SQL: these are the
// tables' shapes themselves, below the query functions under test).

/** A chain whose counter stands at `hop_count` (1: only its hand-off). */
export function insertChain(db: Db, id: string, hop_count = 1): void {
  db.prepare('INSERT INTO chains (id, starter, starter_run_id, touched_json, hop_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0)').run(
    id,
    'lead',
    'r0',
    '[]',
    hop_count,
  );
}

/** A running run of `mid`, bound as a member of `chain_id` through the hand-off row `handoff`. */
export function insertMemberRun(db: Db, a: { run_id: string; chain_id: string; handoff: string }): void {
  db.prepare(
    "INSERT INTO runs (id, agent, status, mode, rules_json, hooks_json, workspace, created_at, updated_at) VALUES (?, 'mid', 'running', 'bypass', '[]', '{}', '/w', 0, 0)",
  ).run(a.run_id);
  db.prepare("INSERT INTO chain_runs (handoff_row_id, run_id, chain_id, agent, depth, path_json, created_at) VALUES (?, ?, ?, 'mid', 2, '[]', 0)").run(
    a.handoff,
    a.run_id,
    a.chain_id,
  );
}

/** A row of `run_id` that was hop `hop` of its chain (null: not a governed hop, or written before migration 010). */
export function insertHopRow(db: Db, a: { id: string; run_id: string; seq: number; hop: number | null }): void {
  db.prepare(
    "INSERT INTO rows (id, run_id, seq, origin, wire_tool, tool, input_json, state, on_failure, created_at, updated_at, hop) VALUES (?, ?, ?, 'model', 'bash', 'bash', '{}', 'running', 'continue', 0, 0, ?)",
  ).run(a.id, a.run_id, a.seq, a.hop);
}
