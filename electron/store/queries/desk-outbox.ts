// The desk outbox and the desk client's memory (migration 007). Written by the kernel inside its own
// transactions; read and trimmed by the desk client after the desk confirmed receipt.
import { stmt, type Db } from '../db.js';
import { parseJson, toJson } from './util.js';

export type OutboxKind = 'card' | 'decision' | 'row' | 'run' | 'answer';
export interface OutboxEntry {
  seq: number;
  kind: OutboxKind;
  ref: string;
  data: Record<string, unknown>;
  at: number;
}

export function insertOutbox(db: Db, a: { kind: OutboxKind; ref: string; data: Record<string, unknown>; now: number }): void {
  stmt(db, 'INSERT INTO desk_outbox (kind, ref, data_json, at) VALUES (?, ?, ?, ?)').run(a.kind, a.ref, toJson(a.data), a.now);
}

/** The oldest undrained changes, in seq order. */
export function outboxBatch(db: Db, a: { limit: number }): OutboxEntry[] {
  const rows = stmt(db, 'SELECT seq, kind, ref, data_json, at FROM desk_outbox ORDER BY seq LIMIT ?').all(a.limit) as Array<{
    seq: number;
    kind: OutboxKind;
    ref: string;
    data_json: string;
    at: number;
  }>;
  return rows.map((r) => ({ seq: r.seq, kind: r.kind, ref: r.ref, data: parseJson(r.data_json, {}), at: r.at }));
}

/** The desk holds every change up to `seq`: forget them here. */
export function trimOutbox(db: Db, a: { through: number }): number {
  return stmt(db, 'DELETE FROM desk_outbox WHERE seq <= ?').run(a.through).changes;
}

export function outboxPending(db: Db): number {
  return (stmt(db, 'SELECT count(*) AS n FROM desk_outbox').get() as { n: number }).n;
}

export function readDeskState<T>(db: Db, a: { key: string; fallback: T }): T {
  const r = stmt(db, 'SELECT value_json FROM desk_state WHERE key = ?').get(a.key) as { value_json: string } | undefined;
  return parseJson(r?.value_json, a.fallback);
}

export function writeDeskState(db: Db, a: { key: string; value: unknown }): void {
  stmt(db, 'INSERT INTO desk_state (key, value_json) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json').run(
    a.key,
    toJson(a.value),
  );
}
