// How rows end: the guarded terminal UPDATE, then waiters, events and the row's on_failure. Every state change
// is a guarded UPDATE, so concurrent enders (approve / deny / the clock / a stop / a tool) have one winner.
import { tx } from '../store/db.js';
import { getRun } from '../store/queries/runs.js';
import { getRow } from '../store/queries/rows.js';
import { transitionRow, patchedRow, type RowPatch } from '../store/queries/row-updates.js';
import { resolveInboxCardsOfRow } from '../store/queries/inbox.js';
import { insertRunEvent } from '../store/queries/events.js';
import type { RowState } from '../../shared/types.js';
import { notFound } from './errors.js';
import { disarmPark, emit, emitInbox, emitRow, isTerminal, type After, type KernelState, type Waiter } from './kernel-state.js';
import type { Row } from './types.js';
import { outboxDecision, outboxRowEnd } from './desk-outbox.js';

/** Guarded end of a row; then waiters, events, and the row's on_failure. Null when another ender won. */
export function endRow(k: KernelState, row: Row, from: readonly RowState[], to: RowState, patch: RowPatch, eventType?: string, after?: After): Row | null {
  const now = k.clock.now();
  const full: RowPatch = { ...patch, ended_at: now };
  // With an event (or a desk outbox row) to record, the end and it commit together; a bare end is one UPDATE,
  // atomic by itself (no savepoint inside a group commit's transaction).
  const won =
    eventType || k.deskOutbox
      ? tx(k.db, () => {
          if (!transitionRow(k.db, row.id, from, to, full, now)) return false;
          if (eventType) insertRunEvent(k.db, { run_id: row.run_id, type: eventType, data: { row_id: row.id, error: patch.error ?? null }, now });
          outboxRowEnd(k, row, to, patch.error?.code ?? null, now);
          return true;
        })
      : transitionRow(k.db, row.id, from, to, full, now);
  if (!won) return null;
  // The caller's `row` may be stale in fields it did not set; only rows it decided itself come in fresh.
  const ended = from.length === 1 && from[0] === row.state ? patchedRow(row, to, full, now) : null;
  if (after) {
    after.push(() => void afterEnd(k, row.id, ended));
    return ended ?? getRow(k.db, row.id);
  }
  return afterEnd(k, row.id, ended);
}

/** Guarded end of a parked row (deny, expiry): its autonomy card resolved in the same transaction. */
export function endParked(k: KernelState, row: Row, to: RowState, patch: RowPatch, inboxStatus: string, by: string | null, eventType: string): Row | null {
  const now = k.clock.now();
  let closed: string[] = [];
  const won = tx(k.db, () => {
    if (!transitionRow(k.db, row.id, ['needs_approval'], to, { ...patch, ended_at: now }, now)) return false;
    closed = resolveInboxCardsOfRow(k.db, { row_id: row.id, status: inboxStatus, by, now });
    insertRunEvent(k.db, { run_id: row.run_id, type: eventType, data: { row_id: row.id, by, detail: patch.error?.detail ?? null }, now });
    outboxDecision(k, row.id, inboxStatus, by, now);
    outboxRowEnd(k, row, to, patch.error?.code ?? null, now);
    return true;
  });
  if (!won) return null;
  emit(k, { type: 'run_event', run_id: row.run_id, event: eventType, data: { row_id: row.id } });
  emitInbox(k, { removed: closed.map((id) => ({ id, status: inboxStatus })) });
  return afterEnd(k, row.id);
}

/** After a row's end is durable: its timer cleared, its waiters woken, its run failed if it was fail_run. */
export function afterEnd(k: KernelState, row_id: string, known: Row | null = null): Row {
  disarmPark(k, row_id);
  k.live.delete(row_id);
  const ended = known ?? getRow(k.db, row_id)!;
  const list = k.waiters.get(row_id);
  if (list) {
    k.waiters.delete(row_id);
    for (const w of list) w.resolve(ended);
  }
  emitRow(k, ended);
  if ((ended.state === 'failed' || ended.state === 'timed_out') && ended.on_failure === 'fail_run') {
    const why = `row ${ended.id} (${ended.tool}) ${ended.state}: ${ended.error?.code ?? 'error'}`;
    // Deferred: the caller finishes its own bookkeeping for this row first.
    queueMicrotask(() => {
      const run = getRun(k.db, ended.run_id);
      if (run && run.status === 'running' && k.phase !== 'closed') k.failRun(k, run.id, why);
    });
  }
  return ended;
}

/**
 * Tool completions are recorded in batches: every completion of one event-loop turn commits in one
 * transaction (group commit), then its waiters wake. Nobody learns of a result before it is durable.
 */
export function queueEnd(k: KernelState, row: Row, to: RowState, patch: RowPatch): void {
  k.pendingEnds.push({ row, to, patch });
  if (k.pendingEnds.length === 1) setImmediate(() => flushEnds(k));
}

export function flushEnds(k: KernelState): void {
  const batch = k.pendingEnds;
  k.pendingEnds = [];
  if (!batch.length || k.phase === 'closed') return;
  const after: After = [];
  tx(k.db, () => {
    for (const e of batch) endRow(k, e.row, ['running'], e.to, e.patch, undefined, after);
  });
  for (const f of after) f();
}

/**
 * Resolves with the row once it is terminal (succeeded, failed, timed_out, canceled). With `signal`, an
 * abort stops waiting: the promise resolves with the row as it is then (a door's wait timed out).
 */
export function waitRow(k: KernelState, row_id: string, opts: { signal?: AbortSignal } = {}): Promise<Row> {
  // A row this process is running or holding is live for sure: no need to read it.
  if (!k.live.has(row_id)) {
    const row = getRow(k.db, row_id);
    if (!row) return Promise.reject(notFound('row', row_id));
    if (isTerminal(row.state)) return Promise.resolve(row);
  }
  return new Promise((resolve, reject) => {
    const list = k.waiters.get(row_id) ?? [];
    const waiter: Waiter = { resolve, reject };
    list.push(waiter);
    k.waiters.set(row_id, list);
    opts.signal?.addEventListener(
      'abort',
      () => {
        const current = k.waiters.get(row_id);
        if (!current || !current.includes(waiter)) return;
        current.splice(current.indexOf(waiter), 1);
        if (!current.length) k.waiters.delete(row_id);
        const row = getRow(k.db, row_id);
        if (row) resolve(row);
        else reject(notFound('row', row_id));
      },
      { once: true },
    );
  });
}
