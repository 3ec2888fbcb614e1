// The team desk (docs/desk.md) against a real Postgres cluster started for the run (test/support/pg-cluster.ts):
// - the outbox drains >= 2,000 changes/s (1,000 parks on one machine, sent while the desk was away);
// - a card parked on A is listed on B <= 50 ms p99; an answer given on B has A's row running <= 50 ms p99;
// - a kernel joined to a desk keeps its local per-row cost within 1.1x of one without.
// Skipped (counted as not measured) where PostgreSQL 15 is not installed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNexus } from '../electron/app.js';
import { pgAvailable, startCluster } from '../test/support/pg-cluster.js';
import { initDesk, machine, removeDir, until } from '../test/support/desk.js';
import { line, now, pct, unmeasured } from './report.js';

async function perRowMs(desk: boolean, url: string, n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-desk-'));
  const nexus = await createNexus({ dataDir: dir, env: {}, modules: {}, desk: desk ? { url, machine: `bench-${Date.now()}`, heartbeatMs: 1000 } : null });
  const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
  const t = now();
  for (let i = 0; i < n; i++) nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command: `echo ${i}` }, origin: 'model' });
  const ms = (now() - t) / n;
  await nexus.close();
  removeDir(dir);
  return ms;
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

    // The drain: 1,000 parks made while this machine's desk URL pointed nowhere (a refused port: no half-closed
    // socket), then the same data dir joined to the real desk. Stopping the server under a live connection is
    // left to the tests: postgres@3.4.9 can crash on it (porsager/postgres#1208).
    const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-drain-'));
    const away = await createNexus({ dataDir: dir, env: {}, modules: {}, desk: { url: 'postgres://laptop_c@127.0.0.1:1/desk', machine: 'bench-c' } });
    const r = away.kernel.createRun({ agent: null, mode: 'ask' });
    for (let i = 0; i < 1000; i++) away.kernel.submitRow(r.id, { tool: 'bash', input: { command: `echo ${i}` }, origin: 'model' });
    const pending = away.desk!.status().outbox_pending;
    await away.close();
    const t = now();
    const back = await createNexus({ dataDir: dir, env: {}, modules: {}, desk: { url: pg.url('laptop_c'), machine: 'bench-c', heartbeatMs: 50 } });
    await until(() => back.desk!.status().outbox_pending === 0, 60_000);
    const rate = pending / ((now() - t) / 1000);
    line(`outbox drain (${pending} changes, on joining)`, `${Math.round(rate)} /s`, '>= 2000/s', rate >= 2000);
    await back.close();
    removeDir(dir);
    await a.close();
    await b.close();
    removeDir(a.dir);
    removeDir(b.dir);

    const without = await perRowMs(false, pg.url('laptop_c'), 2000);
    const joined = await perRowMs(true, pg.url('laptop_c'), 2000);
    line('per-row cost joined / without a desk', `${(joined / without).toFixed(2)}x`, '1.1x', joined / without <= 1.1);
  } finally {
    await pg.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
