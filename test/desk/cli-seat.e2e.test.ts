// `nexus desk status [--json]` and `nexus desk leave [--force]`: the built command against a `nexus serve --desk`
// kernel joined to a real cluster. The URL is never printed with its password; leaving is reported in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import postgres from 'postgres';
import { pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { deskWorld, until, type DeskWorld } from '../support/desk.js';
import { stopChild } from '../support/world.js';

const ROOT = resolve(import.meta.dirname, '../..');
const nexus = (args: string[]): Promise<{ code: number; out: string; err: string }> =>
  new Promise((res) => {
    execFile(process.execPath, ['bin/nexus.cjs', ...args], { cwd: ROOT, encoding: 'utf8' }, (e, out, err) =>
      res({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
let desk: DeskWorld;
let pg: PgCluster;

async function serveDesk(machine: string): Promise<string> {
  const dir = desk.dir(`cli-seat-${machine}`);
  // A password in the URL (trust authentication ignores it): no output may carry it.
  const url = pg.url('laptop_a').replace('laptop_a@', 'laptop_a:pw-in-url@');
  const child = spawn(
    process.execPath,
    ['bin/nexus.cjs', 'serve', '--data-dir', dir, '--no-web', '--desk', url, '--machine', machine, '--desk-person', 'alice'],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
  desk.defer(() => stopChild(child));
  await until(
    async () => {
      const r = await nexus(['desk', 'status', '--json', '--data-dir', dir]);
      return r.code === 0 && JSON.parse(r.out).connected === true;
    },
    20_000,
    'the kernel at the desk',
  );
  return dir;
}

describe.skipIf(!pgAvailable)('nexus desk status, nexus desk leave', () => {
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
    desk = await deskWorld();
    ({ pg } = desk);
  }, 120_000);
  afterAll(async () => desk?.destroy());

  it('status --json gives the documented shape, the URL without its password', async () => {
    const dir = await serveDesk('cli-seat-a');
    const r = await nexus(['desk', 'status', '--json', '--data-dir', dir]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(Object.keys(s).sort()).toEqual(
      [
        'connected',
        'joined',
        'last_error',
        'last_heard_at',
        'machine',
        'outbox_pending',
        'password_store',
        'password_stored',
        'person',
        'silence_stop',
        'silence_stop_s',
        'source',
        'url',
      ].sort(),
    );
    expect(s).toMatchObject({
      joined: true,
      source: 'start',
      url: pg.url('laptop_a'),
      machine: 'cli-seat-a',
      person: 'alice',
      connected: true,
      silence_stop: false,
      silence_stop_s: 10,
    });
    expect(Date.now() - Date.parse(s.last_heard_at)).toBeLessThan(10_000);
    expect(r.out + r.err).not.toContain('pw-in-url');
    const text = await nexus(['desk', 'status', '--data-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`desk: ${pg.url('laptop_a')} (joined at start: --desk or NEXUS_DESK_URL)`);
    expect(text.out).toContain('machine: cli-seat-a · person: alice');
    expect(text.out).toMatch(/connection: connected · last heard \d+\.\d s ago/);
    expect(text.out).toMatch(/outbox: \d+ changes? waiting to reach the desk/);
    expect(text.out).toContain('silence stop: off (engages after 10 s without the desk)');
    expect(text.out).not.toContain('pw-in-url');
  }, 60_000);

  it('leave sends the outbox, marks the machine gone at the desk, and says so; a second leave has nothing to leave', async () => {
    const dir = await serveDesk('cli-seat-b');
    const left = await nexus(['desk', 'leave', '--data-dir', dir]);
    expect(left.code).toBe(0);
    expect(left.out).toContain(`Left the desk at ${pg.url('laptop_a')} (machine cli-seat-b).`);
    expect(left.out).toContain('joins again at its next start');
    const admin = postgres(pg.adminUrl, { onnotice: () => {}, max: 1 });
    try {
      const [m] = await admin`SELECT left_at FROM desk.machines WHERE name = 'cli-seat-b'`;
      expect(m?.left_at).toBeInstanceOf(Date);
    } finally {
      await admin.end();
    }
    const status = await nexus(['desk', 'status', '--data-dir', dir]);
    expect(status.out).toMatch(/^This machine is not at a team desk\./);
    const json = await nexus(['desk', 'status', '--json', '--data-dir', dir]);
    expect(JSON.parse(json.out)).toMatchObject({ joined: false, url: null, machine: null, connected: false });
    const again = await nexus(['desk', 'leave', '--data-dir', dir]);
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toContain('This machine is not at a team desk: nothing to leave.');
  }, 60_000);

  it('says what is wrong: no kernel (exit 1), a wrong word or flag (exit 2)', async () => {
    const empty = desk.dir('cli-seat-none');
    const none = await nexus(['desk', 'status', '--data-dir', empty]);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/^nexus: /);
    const noneJson = await nexus(['desk', 'status', '--json', '--data-dir', empty]);
    expect(JSON.parse(noneJson.out)).toMatchObject({ ok: false, error: { code: 'no_kernel' } });
    expect((await nexus(['desk', 'stauts'])).code).toBe(2);
    expect((await nexus(['desk', 'status', 'now'])).code).toBe(2);
    const force = await nexus(['desk', 'status', '--force']);
    expect(force.code).toBe(2);
    expect(force.err).toContain('--force is for nexus desk leave');
    const help = await nexus(['desk', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('nexus desk leave [--force]');
  });
});
