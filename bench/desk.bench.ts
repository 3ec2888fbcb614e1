// The team desk (docs/desk.md) against a real Postgres cluster started for the run (test/support/pg-cluster.ts):
// - the outbox drains >= 2,000 changes/s (5,000 parks on one machine made while the desk was away);
// - a card parked on A is listed on B <= 50 ms p99; an answer given on B has A's row running <= 50 ms p99;
// - a kernel joined to a desk keeps its local per-row cost within 1.1x of one without.
// Skipped (counted as not measured) where PostgreSQL 15 is not installed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNexus } from '../electron/app.js';
import { pgAvailable, startCluster, type PgCluster } from '../test/support/pg-cluster.js';
import { initDesk, machine, removeDir, until } from '../test/support/desk.js';
import { line, now, pct, unmeasured } from './report.js';
import { openDatabase } from '../electron/store/db.js';
import { outboxPending } from '../electron/store/queries/desk-outbox.js';
import { openDeskSql } from '../electron/desk/pg/conn.js';
import { joinMachine } from '../electron/desk/pg/queries.js';
import { drainOutbox } from '../electron/desk/drain.js';

/**
 * Local per-row cost, joined / without: one kernel of each kind, warmed up, then ROUNDS batches of rows each,
 * in alternating order; the ratio of each kernel's best batch (on a shared machine noise only ever adds time,
 * and swings a single batch by a third either way, so a ratio of single batches measures the neighbours).
 */
async function perRowRatio(url: string, rows: number): Promise<number> {
  const kernels = await Promise.all(
    [false, true].map(async (desk) => {
      const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-desk-'));
      const nexus = await createNexus({ dataDir: dir, env: {}, modules: {}, desk: desk ? { url, machine: `bench-${Date.now()}`, heartbeatMs: 1000 } : null });
      const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
      let i = 0;
      const batch = (n: number) => {
        const t = now();
        for (let j = 0; j < n; j++) nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command: `echo ${i++}` }, origin: 'model' });
        return (now() - t) / n;
      };
      return { nexus, dir, batch };
    }),
  );
  const [without, joined] = kernels;
  without.batch(300);
  joined.batch(300);
  const best = { without: Infinity, joined: Infinity };
  for (let r = 0; r < ROUNDS; r++) {
    // The joined kernel's drain finishes between rounds (as it would between bursts), so neither batch shares
    // the CPU with it; the order alternates, so neither kernel always runs right after the other.
    await joined.nexus.desk?.flush().catch(() => {});
    for (const k of r % 2 === 0 ? [without, joined] : [joined, without]) {
      const ms = k.batch(rows);
      if (k === without) best.without = Math.min(best.without, ms);
      else best.joined = Math.min(best.joined, ms);
    }
  }
  for (const k of kernels) {
    await k.nexus.close();
    removeDir(k.dir);
  }
  return best.joined / best.without;
}
const ROUNDS = 7;

/** The drain itself: `n` changes parked while away, sent by drainOutbox over a connection already open. */
async function drainRate(pg: PgCluster, n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-drain-'));
  // A refused port: the parks wait in the outbox (no half-closed socket, no drain racing the measurement).
  const away = await createNexus({ dataDir: dir, env: {}, modules: {}, desk: { url: 'postgres://laptop_c@127.0.0.1:1/desk', machine: 'bench-c' } });
  const r = away.kernel.createRun({ agent: null, mode: 'ask' });
  for (let i = 0; i < n; i++) away.kernel.submitRow(r.id, { tool: 'bash', input: { command: `echo ${i}` }, origin: 'model' });
  await away.close();
  const db = openDatabase(join(dir, 'nexus.db'));
  const sql = openDeskSql(pg.url('laptop_c'), 'bench-c');
  try {
    await joinMachine(sql, { machine: 'bench-c', instance: 'bench' });
    const pending = outboxPending(db);
    const t = now();
    const sent = await drainOutbox(sql, db, 'bench-c');
    if (sent !== pending) throw new Error(`drained ${sent} of ${pending}`);
    return sent / ((now() - t) / 1000);
  } finally {
    await sql.end();
    db.close();
    removeDir(dir);
  }
}

/** 10 more machines with 1,000 pending cards each (written as the desk's owner would hold them), then B's
 *  person reads the desk inbox's first page through the kernel's client, beside the bare statement. */
async function deskInboxFirstPage(pg: PgCluster, b: Awaited<ReturnType<typeof machine>>): Promise<{ page: number[]; floor: number[] }> {
  const admin = openDeskSql(pg.adminUrl, 'bench-admin');
  try {
    for (let m = 0; m < 10; m++) {
      const name = `fleet-${m}`;
      await admin.unsafe(`INSERT INTO desk.machines (name, role, instance) VALUES ('${name}', 'laptop_a', 'bench-${m}')`);
      await admin.unsafe(
        `INSERT INTO desk.cards (machine, id, kind, run_id, agent, tool, target, expires_at, created_at)
         SELECT '${name}', 'row_' || g, 'autonomy', 'run_${m}', 'ops-bot', 'bash', 'echo ' || g, now() + interval '1 day',
                now() - interval '1 hour' + g * interval '1 ms'
         FROM generate_series(1, 1000) g`,
      );
    }
    await admin.unsafe('ANALYZE desk.cards');
    const select = `SET LOCAL ROLE bob; SELECT machine, id, kind, run_id, agent, tool, target, expires_at FROM desk.cards
                    WHERE status = 'pending' ORDER BY created_at, machine, id LIMIT 200`;
    const page: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 40; i++) {
      let t = now();
      const cards = await b.desk.inbox(200);
      page.push(now() - t);
      if (cards.length !== 200) throw new Error(`the desk inbox's first page held ${cards.length} cards, not 200`);
      t = now();
      await admin.unsafe(select);
      floor.push(now() - t);
    }
    return { page: page.slice(5), floor: floor.slice(5) };
  } finally {
    await admin.end();
  }
}

export async function run(): Promise<void> {
  if (!pgAvailable) return unmeasured('desk', 'PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin)');
  const pg = await startCluster();
  try {
    await initDesk(pg);
    const a = await machine(pg, 'bench-a', 'laptop_a', 'alice');
    const b = await machine(pg, 'bench-b', 'laptop_b', 'bob');
    await until(() => a.desk.status().connected && b.desk.status().connected);

    const listed: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = now();
      const row = a.park();
      await until(async () => (await b.desk.inbox(1000)).some((c) => c.id === row.id), 5000);
      listed.push(now() - t);
      const t2 = now();
      await b.desk.answer(row.id, 'approve');
      await until(() => a.nexus.kernel.getRow(row.id)?.state !== 'needs_approval', 5000);
      answered.push(now() - t2);
    }
    line('card parked on A listed on B, p99', `${pct(listed, 99).toFixed(1)} ms`, '50 ms', pct(listed, 99) <= 50);
    line('answer on B -> the row running on A, p99', `${pct(answered, 99).toFixed(1)} ms`, '50 ms', pct(answered, 99) <= 50);

    const { page, floor } = await deskInboxFirstPage(pg, b);
    line('10 machines x 1,000 pending cards: desk inbox first page (200), p99', `${pct(page, 99).toFixed(1)} ms`, '50 ms', pct(page, 99) <= 50);
    line('  floor: the same statement straight to Postgres as the person, p99', `${pct(floor, 99).toFixed(1)} ms`, '', null);

    const rate = await drainRate(pg, 5000);
    line('outbox drain (5000 changes)', `${Math.round(rate)} /s`, '>= 2000/s', rate >= 2000);
    await a.close();
    await b.close();
    removeDir(a.dir);
    removeDir(b.dir);

    const ratio = await perRowRatio(pg.url('laptop_c'), 500);
    line(`per-row cost joined / without a desk (best of ${ROUNDS})`, `${ratio.toFixed(2)}x`, '1.1x', ratio <= 1.1);
  } finally {
    await pg.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
