// Crash recovery at start and the graceful close. Rows that were running (or never decided) when the process
// died are marked interrupted and never re-run; parked rows keep their deadline; what expired while closed
// expires now. A close does the same for tools still running; parks stay for the next start.
import { getRow, listParkedDeadlines, listRowsInState } from '../store/queries/rows.js';
import { KernelError } from './errors.js';
import * as results from './results.js';
import { armParkClock, expireRow } from './parking.js';
import { endRow, flushEnds } from './row-endings.js';
import type { KernelState } from './kernel-state.js';
import { killSurvivors } from '../sandbox/processes.js';

export interface RecoveryReport {
  interrupted: string[];
  expired: string[];
  parked: string[];
  /** Process groups a crashed kernel's rows left running, killed at this start. */
  killed: number[];
}

export function recoverAtStart(k: KernelState): RecoveryReport {
  if (k.phase !== 'new') throw new Error('kernel already started');
  k.phase = 'started';
  const report: RecoveryReport = { interrupted: [], expired: [], parked: [], killed: [] };
  // First kill what the dead kernel's rows left running (only processes that are provably theirs), so no
  // row is reported "not re-run" while its command is still at work.
  const killed = killSurvivors(k.db);
  report.killed = killed.map((p) => p.pgid);
  const killedRows = new Set(killed.map((p) => p.row_id));
  for (const state of ['running', 'ready'] as const) {
    for (const row of listRowsInState(k.db, state)) {
      const detail = killedRows.has(row.id)
        ? 'NEXUS stopped while this call was in flight; its processes were still running and were killed at restart; not re-run'
        : 'NEXUS stopped while this call was in flight; not re-run';
      if (endRow(k, row, [state], 'failed', { error: { code: 'interrupted', detail }, result: results.interrupted() }, 'row_interrupted'))
        report.interrupted.push(row.id);
    }
  }
  const now = k.clock.now();
  // Only the id and deadline of each parked row (an index read, earliest first): start-up grows with what is
  // parked, not with the rows' contents. The park clock is armed once, for the first deadline still to come.
  let first: { id: string; at: number } | null = null;
  for (const row of listParkedDeadlines(k.db)) {
    const due = row.expires_at ?? now;
    if (due <= now) {
      expireRow(k, row.id);
      report.expired.push(row.id);
    } else {
      first ??= { id: row.id, at: due };
      report.parked.push(row.id);
    }
  }
  if (first) armParkClock(k, first.id, first.at);
  return report;
}

/** Stop everything this process runs: timers cleared, tools aborted (their rows marked interrupted). Parks stay. */
export async function closeKernel(k: KernelState): Promise<void> {
  if (k.phase === 'closing' || k.phase === 'closed') return;
  k.phase = 'closing';
  if (k.parkTimer) k.clock.clearTimeout(k.parkTimer.handle);
  k.parkTimer = null;
  flushEnds(k);
  const pending = [...k.inFlight.entries()];
  for (const [rowId] of pending) {
    const row = getRow(k.db, rowId);
    if (row)
      endRow(
        k,
        row,
        ['running'],
        'failed',
        { error: { code: 'interrupted', detail: 'NEXUS closed while this call was running' }, result: results.interrupted() },
        'row_interrupted',
      );
  }
  for (const c of k.runAborts.values()) c.abort();
  const settle = Promise.allSettled(pending.map(([, f]) => f.done));
  await Promise.race([settle, new Promise((r) => setTimeout(r, 3000).unref())]);
  for (const list of k.waiters.values()) for (const w of list) w.reject(new KernelError('closed', 'the kernel closed'));
  k.waiters.clear();
  k.phase = 'closed';
}
