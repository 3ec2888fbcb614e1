// Two kernels at one real desk through the failures a team meets: the owner killed with a card pending, the
// desk server gone for 30 s while both machines keep working, and the desk's connections cut mid-exchange
// (postgres@3.4.9 can crash a process there: electron/desk/pg/conn.ts). Nothing may be lost or doubled.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { deskWorld, until, type DeskWorld, type Machine } from '../support/desk.js';
import { recordOf } from '../../electron/desk/pg/queries.js';
import { getInboxItem } from '../../electron/store/queries/inbox.js';

const ROOT = resolve(import.meta.dirname, '../..');
let desk: DeskWorld;
let pg: PgCluster;
let admin: postgres.Sql;
let child: ChildProcess | null = null;
const up = (name: string, role: string, person: string, dir?: string) => desk.machine(desk.named(name), role, person, dir ? { dir } : {});

/** The record of one machine holds each of its changes exactly once: seqs 1..n, no gap, no double. */
async function recordIsWhole(m: Machine) {
  const rec = await recordOf(admin, { machine: m.name });
  expect(rec.map((r) => r.seq)).toEqual(rec.map((_, i) => i + 1));
  const cards = rec.filter((r) => r.kind === 'card').map((r) => r.ref);
  expect(new Set(cards).size).toBe(cards.length);
  return rec;
}

/** Each of these cards of the machine is at the desk once, with the status its owner gave it. */
async function deskAgrees(m: Machine, ids: string[]) {
  const desk = await admin`SELECT id, status FROM desk.cards WHERE machine = ${m.name}`;
  const at = new Map(desk.map((c) => [String(c.id), String(c.status)]));
  expect(desk).toHaveLength(ids.length);
  for (const id of ids) expect(at.get(id), id).toBe(getInboxItem(m.nexus.db, id)?.status);
}

describe.skipIf(!pgAvailable)('a desk through crashes and outages', () => {
  beforeAll(async () => {
    desk = await deskWorld();
    ({ pg, admin } = desk);
  }, 60_000);
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = null;
    await desk.reset();
  });
  afterAll(async () => desk?.destroy());

  it('applies an answer given while the owner was killed with kill -9, within the deadline of its restart', async () => {
    const dir = desk.dir('desk-killed');
    const name = desk.named('a');
    const base = `postgres://ROLE@127.0.0.1:${pg.port}/desk`;
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/desk-child.ts'), base, name, 'laptop_a', 'alice', dir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const info = await new Promise<{ row: string; expires_at: string }>((res, rej) => {
      let out = '';
      let err = '';
      child!.stdout!.on('data', (c) => {
        out += c;
        if (out.includes('\n')) res(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      child!.stderr!.on('data', (c) => (err += c));
      child!.once('exit', (code) => rej(new Error(`the child exited early (${code}): ${err}`)));
    });
    const b = await up('b', 'laptop_b', 'bob');
    await until(async () => (await b.desk.inbox()).some((c) => c.id === info.row), 5000, 'the card on B');
    const dead = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await dead;

    await b.desk.answer(info.row, 'approve');
    const restarted = Date.now();
    const a = await up('a', 'laptop_a', 'alice', dir);
    expect(a.name).toBe(name);
    await until(() => a.nexus.kernel.getRow(info.row)?.state === 'succeeded', 5000, 'the answer applied on restart');
    expect(Date.now() - restarted).toBeLessThan(5000);
    expect(Date.now()).toBeLessThan(Date.parse(info.expires_at));
    expect(a.nexus.kernel.getRow(info.row)?.approved_by).toBe(`person:desk:bob@${b.name}`);
    expect(a.probe.calls).toHaveLength(1);
    await until(async () => (await a.desk.flush(), a.desk.status().outbox_pending === 0));
    const rec = await recordIsWhole(a);
    expect(rec.find((r) => r.kind === 'answer')?.data).toMatchObject({ outcome: 'applied', by: `person:desk:bob@${b.name}` });
    await deskAgrees(a, [info.row]);
  }, 60_000);

  it('keeps both machines working through 30 s without Postgres, and after it nothing is lost or doubled', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    const before = a.park();
    await until(async () => (await b.desk.inbox()).some((c) => c.id === before.id), 5000, 'the first card on B');
    await pg.stop();
    const downAt = Date.now();
    const parked: Record<string, string[]> = { [a.name]: [before.id], [b.name]: [] };
    for (let i = 0; Date.now() - downAt < 30_000; i++) {
      for (const m of [a, b]) {
        const row = m.park();
        parked[m.name].push(row.id);
        // Each machine's own person still answers its own cards, in its own window or CLI.
        if (i % 2 === 0) m.nexus.kernel.approve(row.id, { by: 'person:local' });
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    // Silent longer than 10 s: governed hops are stopped, not waved through.
    expect(a.nexus.governance!.stopAllInEffect()).toBe(true);
    expect(a.desk.status().connected).toBe(false);
    expect(a.desk.status().outbox_pending).toBeGreaterThan(30);
    await pg.start();
    await until(() => a.desk.status().outbox_pending === 0 && b.desk.status().outbox_pending === 0, 20_000, 'both outboxes drained');
    await until(() => !a.nexus.governance!.stopAllInEffect() && !b.nexus.governance!.stopAllInEffect(), 10_000, 'the silence stop lifted');
    for (const m of [a, b]) {
      const rec = await recordIsWhole(m);
      expect(rec.filter((r) => r.kind === 'card').map((r) => r.ref)).toEqual(parked[m.name]);
      await deskAgrees(m, parked[m.name]);
    }
    // The desk works as before: B answers a card A parked during the outage, and A applies it.
    const late = parked[a.name].find((id) => a.nexus.kernel.getRow(id)?.state === 'needs_approval')!;
    await b.desk.answer(late, 'approve');
    await until(() => a.nexus.kernel.getRow(late)?.state === 'succeeded', 5000, 'the answer after the outage');
  }, 120_000);

  it('survives its desk connections being cut again and again mid-exchange, and still delivers every change once', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    await until(() => a.desk.status().connected && b.desk.status().connected);
    const cuts = setInterval(() => {
      void admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename IN ('laptop_a', 'laptop_b')`.catch(() => {});
    }, 25);
    const answers: Promise<unknown>[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        for (let j = 0; j < 50; j++) a.park();
        const row = b.park();
        answers.push(a.desk.answer(row.id, 'deny', 'cut').catch(() => null));
        await new Promise((r) => setTimeout(r, 40));
      }
      await Promise.all(answers);
    } finally {
      clearInterval(cuts);
    }
    await until(() => a.desk.status().outbox_pending === 0 && b.desk.status().outbox_pending === 0, 30_000, 'both outboxes drained');
    for (const m of [a, b]) {
      const rec = await recordIsWhole(m);
      expect(rec.filter((r) => r.kind === 'card')).toHaveLength(m === a ? 2000 : 40);
    }
  }, 120_000);
});
