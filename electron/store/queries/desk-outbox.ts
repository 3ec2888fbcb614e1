// The desk outbox and the desk client's memory (migration 007). Written by the kernel inside its own
// transactions; read and trimmed by the desk client after the desk confirmed receipt.
import { z } from 'zod';
import { stmt, type Db } from '../db.js';
import { toJson } from './util.js';

const KINDS = ['card', 'decision', 'row', 'run', 'answer'] as const;
export type OutboxKind = (typeof KINDS)[number];
// Rows are parsed, not cast: what the desk receives is exactly what these say.
const OutboxRow = z.object({
  seq: z.number().int(),
  kind: z.enum(KINDS),
  ref: z.string(),
  data_json: z.string().transform((t): Record<string, unknown> => z.record(z.string(), z.unknown()).parse(JSON.parse(t))),
  at: z.number(),
});
const Count = z.object({ n: z.number() });
const StateRow = z.object({ value_json: z.string() }).optional();
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
  const rows = z.array(OutboxRow).parse(stmt(db, 'SELECT seq, kind, ref, data_json, at FROM desk_outbox ORDER BY seq LIMIT ?').all(a.limit));
  return rows.map((r) => ({ seq: r.seq, kind: r.kind, ref: r.ref, data: r.data_json, at: r.at }));
}

/** The desk holds every change up to `seq`: forget them here. */
export function trimOutbox(db: Db, a: { through: number }): number {
  return stmt(db, 'DELETE FROM desk_outbox WHERE seq <= ?').run(a.through).changes;
}

export function outboxPending(db: Db): number {
  return Count.parse(stmt(db, 'SELECT count(*) AS n FROM desk_outbox').get()).n;
}

/** A value the desk client kept, read through `schema` (the fallback when absent). */
export function readDeskState<T>(db: Db, a: { key: string; schema: z.ZodType<T>; fallback: T }): T {
  const r = StateRow.parse(stmt(db, 'SELECT value_json FROM desk_state WHERE key = ?').get(a.key));
  return r ? a.schema.parse(JSON.parse(r.value_json)) : a.fallback;
}

export function writeDeskState(db: Db, a: { key: string; value: unknown }): void {
  stmt(db, 'INSERT INTO desk_state (key, value_json) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json').run(
    a.key,
    toJson(a.value),
  );
}
