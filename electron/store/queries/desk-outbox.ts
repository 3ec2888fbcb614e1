// The desk outbox and the desk client's memory (migration 007). Written by the kernel inside its own
// transactions; read and trimmed by the desk client after the desk confirmed receipt.
import { z } from 'zod';
import { stmt, watchedRead, wroteWatched, type Db } from '../db.js';
import { toJson } from './util.js';

export type OutboxKind = 'card' | 'decision' | 'row' | 'run' | 'answer';
/** The kinds migration 009's triggers write (run starts, chains, holds, tasks and their evidence). */
export type RecordKind = OutboxKind | 'run_start' | 'chain' | 'hold' | 'task' | 'task_evidence';

/** Whether the store's triggers feed the outbox (migration 009): on while joined to a desk, off without one. */
export function setDeskJoined(db: Db, joined: boolean): void {
  if (joined) writeDeskState(db, { key: 'joined', value: true });
  else stmt(db, "DELETE FROM desk_state WHERE key = 'joined'").run();
  wroteWatched(db);
}

/** Whether this store is joined to a desk now, as its triggers read it. Remembered until desk_state is written. */
export const deskJoined = watchedRead((db: Db): boolean => stmt(db, "SELECT value_json FROM desk_state WHERE key = 'joined'").pluck().get() === 'true');
const Batch = z.object({ n: z.number().int(), through: z.number().int().nullable(), json: z.string() });
const Count = z.object({ n: z.number() });
const StateRow = z.object({ value_json: z.string() }).optional();

/** A batch of the oldest undrained changes as one JSON array (built by SQLite: nothing parsed or re-serialised). */
export interface OutboxBatch {
  n: number;
  /** The highest seq in the batch (trim through it once the desk holds it). */
  through: number;
  /** `[{seq, kind, ref, data, at}, ...]` in seq order; `at` in epoch ms. */
  json: string;
}

export function insertOutbox(db: Db, a: { kind: OutboxKind; ref: string; data: Record<string, unknown>; now: number }): void {
  stmt(db, 'INSERT INTO desk_outbox (kind, ref, data_json, at) VALUES (?, ?, ?, ?)').run(a.kind, a.ref, toJson(a.data), a.now);
}

/** The oldest undrained changes, at most `limit`; null when the outbox is empty. */
export function outboxBatch(db: Db, a: { limit: number }): OutboxBatch | null {
  const r = Batch.parse(
    stmt(
      db,
      `SELECT count(*) AS n, max(seq) AS through,
              json_group_array(json_object('seq', seq, 'kind', kind, 'ref', ref, 'data', json(data_json), 'at', at)) AS json
       FROM (SELECT seq, kind, ref, data_json, at FROM desk_outbox ORDER BY seq LIMIT ?)`,
    ).get(a.limit),
  );
  return r.n > 0 && r.through !== null ? { n: r.n, through: r.through, json: r.json } : null;
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
  wroteWatched(db); // deskJoined reads this table
}
