// Every statement the kernel prepares while it works must find its rows through an index: a full scan of
// rows, runs, inbox or run_events grows with the store's whole history, not with what is live. The workload
// below drives a real NEXUS (turns + governance) through parks, approvals, a delegated chain with a held hop,
// lists and run details; then each statement it prepared is explained.
import { afterEach, describe, expect, it } from 'vitest';
import { bash, delegate, last, scenario, type Scenario } from '../../test/support/scenarios.js';
import { preparedSql, type Db } from './db.js';
import type { InboxItem } from '../../shared/api/inbox.js';

/** Tables whose size is the store's history. A `SCAN` of one of them (without an index) is the defect. */
const HISTORY_TABLES = ['rows', 'runs', 'inbox', 'run_events', 'tasks'];

interface PlanRow {
  detail: string;
}

function plan(db: Db, sql: string): string[] {
  const params = (sql.match(/\?/g) ?? []).map(() => null);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as PlanRow[]).map((r) => r.detail);
}

/** A plan line that reads a history table from end to end. `SCAN t USING INDEX` / `COVERING INDEX` is ordered by an index; plain `SCAN t` is not. */
const fullScan = (detail: string, sql = ''): string | null => {
  const m = /^SCAN (\w+)(.*)$/.exec(detail);
  if (!m) return null;
  // A plan names a table by its alias when the statement gives one (`FROM tasks t`).
  const table = new RegExp(`\\b(?:FROM|JOIN) (\\w+) (?:AS )?${m[1]}\\b`, 'i').exec(sql)?.[1] ?? m[1];
  if (!HISTORY_TABLES.includes(table)) return null;
  return /USING (COVERING )?INDEX/.test(m[2]) ? null : table;
};

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

describe('query plans', () => {
  it('no statement prepared during parks, approvals, a held chain hop and the lists scans a history table', async () => {
    s = await scenario({
      lead: (req, i) => (i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${last(req)}` }),
      mid: (_req, i) => (i === 0 ? { toolCalls: [bash('echo hop')] } : i === 1 ? { text: 'waiting' } : { toolCalls: [bash('echo hop')] }),
      solo: { script: (_req, i) => (i === 0 ? { toolCalls: [bash('echo parked')] } : { text: 'done' }), mode: 'ask' },
    });
    await s.open(['lead'], true);
    s.start('lead');
    const solo = s.start('solo');
    const cards = () => s!.call<InboxItem[]>('inboxList');
    for (let i = 0; (await cards()).length < 2; i++) {
      if (i > 1500) throw new Error('timed out waiting for a held hop and a parked row');
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const c of await cards()) await s.call('inboxApprove', { id: c.id });
    await s.ended(solo.id);
    // Every list, first page and a page after a cursor.
    const runs = await s.call<{ id: string }[]>('runsList', { limit: 1 });
    await s.call('runsList', { limit: 1, cursor: runs[0].id });
    // The Runs view's filters, alone and together (issue 23 item 9).
    await s.call('runsList', { limit: 1, agent: 'lead', status: 'succeeded', client: 'none', cursor: runs[0].id });
    await s.call('runsList', { limit: 1, status: 'running' });
    await s.call('runsList', { limit: 1, client: 'claude-code' });
    const detail = await s.call<{ rows_next_cursor: string | null; events_next_cursor: string | null }>('runsShow', {
      id: solo.id,
      rows_limit: 1,
      events_limit: 1,
    });
    await s.call('runsRows', { run_id: solo.id, cursor: detail.rows_next_cursor, limit: 1 });
    await s.call('runsEvents', { run_id: solo.id, cursor: detail.events_next_cursor, limit: 1 });
    const tasks = await s.call<{ id: string }[]>('tasksList', { limit: 1 });
    expect(tasks.length).toBe(1);
    await s.call('tasksList', { limit: 1, cursor: tasks[0].id });
    const page = await s.call<InboxItem[]>('inboxList', { limit: 1 });
    if (page.length) await s.call('inboxList', { limit: 1, cursor: page[0].id });
    await s.call('chainsList');
    await s.call('status');
    // A restart's recovery queries, on the same connection.
    await s.call('inboxList');

    const offenders: string[] = [];
    const sqls = preparedSql(s.nexus.db);
    expect(sqls.length).toBeGreaterThan(20);
    for (const sql of sqls) {
      if (!/^\s*(SELECT|UPDATE|DELETE)/i.test(sql)) continue;
      for (const line of plan(s.nexus.db, sql)) {
        const table = fullScan(line, sql);
        if (table) offenders.push(`${table}: ${sql.replace(/\s+/g, ' ')}  [${line}]`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the live-state queries use the partial index rows_live', async () => {
    const { openDatabase } = await import('./db.js');
    const { listRowsInState, countRowsInState, countParkedOfRun } = await import('./queries/rows.js');
    const db = openDatabase(':memory:');
    listRowsInState(db, 'running');
    countRowsInState(db, 'needs_approval');
    const live = preparedSql(db).filter((q) => q.includes('FROM rows'));
    expect(live.length).toBe(2);
    for (const q of live) expect(plan(db, q).join('\n')).toMatch(/rows_live/);
    // A run's parked count reads that run's parked rows only (the partial index of migration 006).
    countParkedOfRun(db, 'run_x');
    expect(plan(db, preparedSql(db).at(-1)!).join('\n')).toMatch(/rows_parked_by_run/);
    db.close();
  });
});
