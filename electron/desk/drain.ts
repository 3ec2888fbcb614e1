// Kernel → desk: the outbox drained in seq order, one batch per Postgres statement (one multi-row insert,
// prepared once per connection); a batch is trimmed here only after the desk committed it. A crash on either side re-sends at most the last batch, and the record's
// (machine, seq) key turns a re-sent change into a no-op: nothing lost, nothing doubled.
import type { DeskSql } from './pg/conn.js';
import type { Db } from '../store/db.js';
import { outboxBatch, trimOutbox } from '../store/queries/desk-outbox.js';
import { pushChanges } from './pg/queries.js';

// Large enough that the round trip is amortised, small enough that one statement stays well under a megabyte.
const BATCH = 1000;

/** Drain everything pending now; returns how many changes the desk confirmed. Throws when the desk is away. */
export async function drainOutbox(sql: DeskSql, db: Db, machine: string): Promise<number> {
  let sent = 0;
  for (;;) {
    const batch = outboxBatch(db, { limit: BATCH });
    if (!batch) return sent;
    await pushChanges(sql, { machine, json: batch.json });
    trimOutbox(db, { through: batch.through });
    sent += batch.n;
  }
}
