// Two kernels on two data dirs joined to one real Postgres desk (DESIGN §8): cards travel to every machine,
// answers travel to the owner, the first answer wins, and nothing is lost or doubled across an outage.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { deskWorld, until, type DeskWorld } from '../support/desk.js';
import { recordOf } from '../../electron/desk/pg/queries.js';

let desk: DeskWorld;
let pg: PgCluster;
let admin: postgres.Sql;
// Each test's machines get names of their own: a name stays bound to the data dir that first joined with it.
const up = (name: string, role: string, person: string, silenceStopS?: number) =>
  desk.machine(desk.named(name), role, person, silenceStopS === undefined ? {} : { silenceStopS });

describe.skipIf(!pgAvailable)('two machines at one desk', () => {
  beforeAll(async () => {
    desk = await deskWorld();
    ({ pg, admin } = desk);
  }, 60_000);
  afterEach(async () => {
    await desk.reset();
    await admin`DELETE FROM desk.policy WHERE key = 'stop_all'`;
  });
  afterAll(async () => desk?.destroy());

  it('lists a card parked on A in B inbox; B approves, A runs it, and both records agree', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    const row = a.park('hello');
    expect(row.state).toBe('needs_approval');
    const card = await until(async () => (await b.desk.inbox()).find((c) => c.id === row.id), 5000, 'the card on B');
    expect(card).toMatchObject({ machine: a.name, tool: 'probe', agent: 'ops-bot', run_id: row.run_id });

    await b.desk.answer(row.id, 'approve');
    const done = await a.nexus.kernel.waitRow(row.id);
    expect(done.state).toBe('succeeded');
    expect(done.approved_by).toBe(`person:desk:bob@${b.name}`);
    expect(a.probe.calls).toHaveLength(1);

    await until(async () => (await a.desk.flush(), a.desk.status().outbox_pending === 0));
    // The run's start comes first (migration 009's trigger); the row ends after its tool ran, so its end may
    // follow the answer's outcome.
    const all = await recordOf(admin, { machine: a.name });
    expect(all[0]?.kind).toBe('run_start');
    const rec = all.slice(1);
    expect(rec.map((r) => r.kind).slice(0, 2)).toEqual(['card', 'decision']);
    expect(rec.map((r) => r.kind).sort()).toEqual(['answer', 'card', 'decision', 'row']);
    const of = (kind: string) => rec.find((r) => r.kind === kind)?.data;
    expect(of('decision')).toMatchObject({ row_id: row.id, status: 'approved', by: `person:desk:bob@${b.name}` });
    expect(of('row')).toMatchObject({ row_id: row.id, state: 'succeeded' });
    expect(of('answer')).toMatchObject({ outcome: 'applied', by: `person:desk:bob@${b.name}` });
    const [c] = await admin`SELECT status, decided_by FROM desk.cards WHERE machine = ${a.name} AND id = ${row.id}`;
    expect(c).toMatchObject({ status: 'approved', decided_by: `person:desk:bob@${b.name}` });
    expect((await b.desk.inbox()).filter((x) => x.id === row.id)).toHaveLength(0);
  });

  it('applies exactly one of two answers given at once and records the other as too late, naming the winner', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    const row = a.park();
    await until(async () => (await b.desk.inbox()).some((c) => c.id === row.id));
    await Promise.all([b.desk.answer(row.id, 'approve'), a.desk.answer(row.id, 'deny', 'not now')]);
    await until(() => a.desk.outcomes.length === 2, 5000, 'both outcomes');
    const [first, second] = a.desk.outcomes;
    expect(first.outcome).toBe('applied');
    expect(second).toMatchObject({ outcome: 'too_late', winner: first.by });
    const ended = await a.nexus.kernel.waitRow(row.id);
    const bobWon = first.by === `person:desk:bob@${b.name}`;
    expect(ended.state).toBe(bobWon ? 'succeeded' : 'failed');
    expect(a.probe.calls.length).toBe(bobWon ? 1 : 0);
  });

  it('applies an answer given while the owner was down when it starts again', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    const row = a.park();
    await until(async () => (await b.desk.inbox()).some((c) => c.id === row.id));
    await a.close();
    await b.desk.answer(row.id, 'approve');
    const again = await a.reopen();
    desk.defer(() => again.close());
    // Crash recovery keeps a parked row parked; the catch-up by sequence finds the answer.
    await until(() => again.nexus.kernel.getRow(row.id)?.state === 'succeeded', 5000, 'the answer applied after restart');
    expect(again.nexus.kernel.getRow(row.id)?.approved_by).toBe(`person:desk:bob@${b.name}`);
  });

  it('engages Stop all pressed on B on A, whose governed hops stop, and lifts it on resume', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    await until(() => a.desk.status().connected && b.desk.status().connected);
    expect(a.nexus.governance!.stopAllInEffect()).toBe(false);
    const parked = a.park();
    await b.desk.setStopAll(true);
    await until(() => a.nexus.governance!.stopAllInEffect(), 3000, 'Stop all on A');
    // Stop all force-stops what was running on A too: its run is canceled, its parked row with it.
    await until(() => a.nexus.kernel.getRun(parked.run_id)?.status === 'canceled', 3000, 'A run stopped');
    await until(async () => !(await b.desk.inbox()).some((c) => c.id === parked.id), 3000, 'its card closed at the desk');
    await b.desk.setStopAll(false);
    await until(() => !a.nexus.governance!.stopAllInEffect(), 3000, 'Resume on A');
  });

  it('treats a desk silent for longer than silenceStopS as Stop all for governed hops, and lifts it when the desk is back', async () => {
    const a = await up('a', 'laptop_a', 'alice', 0.5);
    await until(() => a.desk.status().connected);
    expect(a.nexus.governance!.stopAllInEffect()).toBe(false);
    await pg.stop();
    await until(() => a.nexus.governance!.stopAllInEffect(), 5000, 'silence stop');
    expect(a.desk.status().connected).toBe(false);
    await pg.start();
    const back = Date.now();
    await until(() => !a.nexus.governance!.stopAllInEffect(), 10_000, 'heard again');
    expect(Date.now() - back).toBeLessThan(10_000);
  });

  it('loses nothing and doubles nothing while Postgres is down and both machines keep working', async () => {
    const a = await up('a', 'laptop_a', 'alice');
    const b = await up('b', 'laptop_b', 'bob');
    const first = a.park();
    await until(async () => (await b.desk.inbox()).some((c) => c.id === first.id));
    await pg.stop();
    for (let i = 0; i < 5; i++) {
      a.park();
      b.park();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(a.desk.status().outbox_pending).toBeGreaterThan(0);
    await pg.start();
    // The first statement on a pooled connection the restart cut may fail: the next one reconnects.
    const mine = async () => (await b.desk.inbox().catch(() => [])).filter((c) => c.machine === a.name || c.machine === b.name);
    // Under a loaded CI machine the pool's renewal (after five failed beats) can take a while after the restart.
    await until(async () => (await mine()).length === 11, 40_000, 'all 11 cards at the desk');
    await until(() => a.desk.status().outbox_pending === 0 && b.desk.status().outbox_pending === 0);
    for (const m of [a, b]) {
      const rec = await recordOf(admin, { machine: m.name });
      const seqs = rec.map((r) => r.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      const cards = rec.filter((r) => r.kind === 'card').map((r) => r.ref);
      expect(cards).toHaveLength(m === a ? 6 : 5);
      expect(new Set(cards).size).toBe(cards.length);
    }
  }, 90_000);
});
