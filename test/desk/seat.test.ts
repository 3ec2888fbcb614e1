// A machine's seat at the desk through the API (deskStatus, deskJoin, deskLeave, deskInbox, deskAnswer): joined
// and left at run time, remembered across a restart, its password kept in the secret store only, and every
// refusal a sentence. Real kernels on their own data dirs, a real Postgres cluster.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { deskWorld, until, type DeskWorld, type Machine } from '../support/desk.js';
import { createNexus, type Nexus } from '../../electron/app.js';
import { dispatch } from '../../electron/api/index.js';
import type { MethodName, Methods, InputOf, OutputOf, Result } from '../../shared/api/index.js';

let desk: DeskWorld;
let pg: PgCluster;
let admin: postgres.Sql;

const callOn =
  (n: Nexus) =>
  <K extends MethodName>(name: K, input: InputOf<Methods[K]>): Promise<Result<OutputOf<Methods[K]>>> =>
    dispatch(n.handlers, name, input, { door: 'internal' }) as Promise<Result<OutputOf<Methods[K]>>>;

/** A kernel with no seat yet, closed after the test (a fresh data dir unless `dir`). */
async function bare(dir?: string): Promise<Nexus> {
  const n = await createNexus({ dataDir: dir ?? desk.dir('seat'), env: {}, modules: { governance: true } });
  desk.defer(() => n.close());
  return n;
}

/** Every byte of every file in the data dir except the secret store. */
const everythingButSecrets = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f !== 'secrets.json')
    .map((f) => {
      try {
        return readFileSync(join(dir, f)).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('\n');

describe.skipIf(!pgAvailable)('the desk seat through the API', () => {
  beforeAll(async () => {
    desk = await deskWorld();
    ({ pg, admin } = desk);
  }, 60_000);
  afterEach(async () => desk.reset());
  afterAll(async () => desk?.destroy());

  it('joins at run time, keeps the password in the secret store alone, and rejoins from the saved seat after a restart', async () => {
    const n = await bare();
    const call = callOn(n);
    expect(await call('deskStatus', {})).toMatchObject({ ok: true, value: { joined: false, connected: false, url: null, outbox_pending: 0 } });
    const url = pg.url('laptop_a').replace('laptop_a@', 'laptop_a:hunter2-secret@');
    const joined = await call('deskJoin', { url, machine: 'seat-a', person: 'alice' });
    expect(joined).toMatchObject({
      ok: true,
      value: { joined: true, source: 'saved', connected: true, machine: 'seat-a', person: 'alice', password_stored: true },
    });
    if (!joined.ok) throw new Error('not joined');
    expect(joined.value.url).toBe(pg.url('laptop_a'));
    expect(JSON.stringify(joined.value)).not.toContain('hunter2');
    expect(readFileSync(join(n.dataDir, 'secrets.json'), 'utf8')).toContain('hunter2-secret');
    await n.close();
    expect(everythingButSecrets(n.dataDir)).not.toContain('hunter2');
    const [m] = await admin`SELECT role, left_at FROM desk.machines WHERE name = 'seat-a'`;
    expect(m).toMatchObject({ role: 'laptop_a', left_at: null });

    const again = await bare(n.dataDir);
    expect(again.desk?.opts.password).toBe('hunter2-secret');
    await until(async () => {
      const s = await callOn(again)('deskStatus', {});
      return s.ok && s.value.connected && s.value.source === 'saved';
    });
  });

  it('leaves: sends the outbox, marks the machine gone, forgets seat and password, and stays left after a restart', async () => {
    const n = await bare();
    const call = callOn(n);
    expect((await call('deskJoin', { url: pg.url('laptop_a'), machine: 'seat-b', person: null, password: 'pw-x' })).ok).toBe(true);
    const left = await call('deskLeave', {});
    expect(left).toMatchObject({ ok: true, value: { joined: false, password_stored: false } });
    expect(n.desk).toBeNull();
    const [m] = await admin`SELECT left_at FROM desk.machines WHERE name = 'seat-b'`;
    expect(m.left_at).toBeInstanceOf(Date);
    expect(readFileSync(join(n.dataDir, 'secrets.json'), 'utf8')).not.toContain('pw-x');
    // No desk: no outbox row is written, and governed hops no longer wait on the desk.
    const run = n.kernel.createRun({ agent: null, mode: 'ask' });
    n.kernel.submitRow(run.id, { tool: 'nothing', input: {}, origin: 'model' });
    expect((await call('deskStatus', {})).ok && n.governance!.stopAllInEffect()).toBe(false);
    await n.close();
    const again = await bare(n.dataDir);
    expect(again.desk).toBeNull();
  });

  it('refuses a join it cannot make, with a sentence, and remembers nothing', async () => {
    const n = await bare();
    const call = callOn(n);
    const down = await call('deskJoin', { url: 'postgres://laptop_a@127.0.0.1:1/desk', machine: 'seat-c', person: null });
    expect(down).toMatchObject({ ok: false, error: { code: 'desk_unreachable' } });
    if (down.ok) throw new Error('joined');
    expect(down.error.message).toMatch(/^Could not join the desk at postgres:\/\/laptop_a@127\.0\.0\.1:1\/desk: nothing answers at 127\.0\.0\.1:1/);
    const bad = await call('deskJoin', { url: 'http://x', machine: 'no spaces', person: null });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (bad.ok) throw new Error('joined');
    expect(bad.error.details?.map((d) => d.path).sort()).toEqual(['machine', 'url']);
    expect(await call('deskStatus', {})).toMatchObject({ ok: true, value: { joined: false } });
    // A name another data dir holds is refused by the desk, in words.
    expect((await call('deskJoin', { url: pg.url('laptop_a'), machine: 'seat-d', person: null })).ok).toBe(true);
    const other = await bare();
    const taken = await callOn(other)('deskJoin', { url: pg.url('laptop_a'), machine: 'seat-d', person: null });
    expect(taken).toMatchObject({ ok: false, error: { code: 'desk_unreachable' } });
    if (!taken.ok) expect(taken.error.message).toMatch(/already has a machine named seat-d/);
    expect(await call('deskJoin', { url: pg.url('laptop_a'), machine: 'seat-e', person: null })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('will not leave a desk it cannot reach unless forced; forced, it leaves and keeps the outbox', async () => {
    const n = await bare();
    const call = callOn(n);
    expect((await call('deskJoin', { url: pg.url('laptop_a'), machine: 'seat-f', person: null })).ok).toBe(true);
    await pg.stop();
    const run = n.kernel.createRun({ agent: null, mode: 'ask' });
    n.kernel.submitRow(run.id, { tool: 'nothing', input: {}, origin: 'model' });
    await until(async () => {
      const s = await call('deskStatus', {});
      return s.ok && !s.value.connected && s.value.outbox_pending > 0;
    });
    const refused = await call('deskLeave', {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'desk_unreachable' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/wait in the outbox; leave once the desk is back, or leave anyway/);
    expect(await call('deskStatus', {})).toMatchObject({ ok: true, value: { joined: true } });
    expect(await call('deskLeave', { force: true })).toMatchObject({ ok: true, value: { joined: false } });
  }, 30_000);

  it("lists every machine's card with its machine, and answers another machine's card from here", async () => {
    const a: Machine = await desk.machine('seat-ma', 'laptop_a', 'alice');
    const b: Machine = await desk.machine('seat-mb', 'laptop_b', 'bob');
    const row = a.park('from-a');
    const listed = await until(async () => {
      const r = await callOn(b.nexus)('deskInbox', {});
      return r.ok && r.value.cards.find((c) => c.id === row.id);
    });
    expect(listed).toMatchObject({ machine: 'seat-ma', local: false, tool: 'probe', agent: 'ops-bot' });
    const onA = await callOn(a.nexus)('deskInbox', {});
    expect(onA.ok && onA.value.cards.find((c) => c.id === row.id)?.local).toBe(true);
    expect(await callOn(b.nexus)('deskAnswer', { id: row.id, verdict: 'approve' })).toMatchObject({ ok: true, value: { machine: 'seat-ma' } });
    expect((await a.nexus.kernel.waitRow(row.id)).approved_by).toBe('person:desk:bob@seat-mb');
    expect(await callOn(b.nexus)('deskAnswer', { id: 'no-such-card', verdict: 'deny' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
