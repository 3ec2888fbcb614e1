// `nexus desk init` and `nexus serve --desk` end to end: the built command against a real cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import postgres from 'postgres';
import { pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { createDeskRoles } from '../support/desk-roles.js';
import { deskWorld, until, type DeskWorld } from '../support/desk.js';

const ROOT = resolve(import.meta.dirname, '../..');
const nexusAsync = (args: string[]): Promise<{ code: number; out: string }> =>
  new Promise((res) => {
    const c = spawn(process.execPath, ['bin/nexus.cjs', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (out += d));
    c.on('close', (code) => res({ code: code ?? 1, out }));
  });
const nexus = (args: string[]) => {
  try {
    return { code: 0, out: execFileSync(process.execPath, ['bin/nexus.cjs', ...args], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, out: x.stdout + x.stderr };
  }
};
let desk: DeskWorld;
let pg: PgCluster;

describe.skipIf(!pgAvailable)('nexus desk init, nexus serve --desk', () => {
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
    desk = await deskWorld({ init: false }); // the schema is what `nexus desk init` makes here
    ({ pg } = desk);
  }, 120_000);
  afterAll(async () => desk?.destroy());

  it('creates the schema, says the version, and a second run changes nothing', () => {
    const first = nexus(['desk', 'init', pg.adminUrl, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toEqual({ url: pg.adminUrl, version: 4, newest: 4 });
    expect(nexus(['desk', 'init', pg.adminUrl]).out).toMatch(/is at schema version 4/);
  });

  it('refuses a URL that is not postgres:// as a usage error, and never prints a password', () => {
    expect(nexus(['desk', 'init', 'http://x']).code).toBe(2);
    const r = nexus(['desk', 'init', `postgres://desk_admin:s3cret@127.0.0.1:1/desk`]);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('s3cret');
  });

  it('serve --desk --machine joins the desk as that machine', async () => {
    await createDeskRoles(pg.adminUrl);
    const dir = desk.dir('desk-serve');
    const child = spawn(process.execPath, ['bin/nexus.cjs', 'serve', '--data-dir', dir, '--no-web', '--desk', pg.url('laptop_a'), '--machine', 'cli-a'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const admin = postgres(pg.adminUrl, { onnotice: () => {}, max: 1 });
    try {
      await until(async () => (await admin`SELECT 1 FROM desk.machines WHERE name = 'cli-a' AND role = 'laptop_a'`).length === 1, 20_000, 'the machine row');
    } finally {
      await admin.end();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('answers a card of machine A from the CLI over machine B socket, as B person, and lists the whole desk with --desk', async () => {
    const a = await desk.machine('cli-owner', 'laptop_a', 'alice');
    const serve = (dir: string, role: string, name: string, person: string) =>
      spawn(process.execPath, ['bin/nexus.cjs', 'serve', '--data-dir', dir, '--no-web', '--desk', pg.url(role), '--machine', name, '--desk-person', person], {
        cwd: ROOT,
        stdio: 'ignore',
      });
    const bDir = desk.dir('desk-cli-b');
    const cDir = desk.dir('desk-cli-c');
    const b = serve(bDir, 'laptop_b', 'cli-b', 'bob');
    const c = serve(cDir, 'laptop_c', 'cli-c', 'carol');
    try {
      const row = a.park('from the cli');
      const listed = await until(
        async () => {
          const r = await nexusAsync(['inbox', '--desk', '--json', '--data-dir', bDir]);
          return r.code === 0 && (JSON.parse(r.out) as Array<{ id: string; machine: string }>).find((x) => x.id === row.id);
        },
        20_000,
        "A's card in B's desk inbox",
      );
      expect(listed).toMatchObject({ machine: 'cli-owner', agent: 'ops-bot', tool: 'probe' });
      // carol is in no team that answers ops-bot: the database refuses her answer, sent over C's socket.
      await until(async () => (await nexusAsync(['inbox', '--desk', '--json', '--data-dir', cDir])).code === 0, 20_000, 'C joined');
      const refused = await nexusAsync(['deny', row.id, '--data-dir', cDir]);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/refused/);
      const ok = await nexusAsync(['approve', row.id, '--json', '--data-dir', bDir]);
      expect(ok.code, ok.out).toBe(0);
      expect(JSON.parse(ok.out)).toEqual({ id: row.id, state: 'approved', machine: 'cli-owner' });
      const done = await a.nexus.kernel.waitRow(row.id);
      expect(done.state).toBe('succeeded');
      expect(done.approved_by).toBe('person:desk:bob@cli-b');
      // The whole desk's runs, read on B: A's run with its agent, named by its machine.
      const runs = await until(
        async () => {
          const r = await nexusAsync(['runs', 'list', '--desk', '--json', '--data-dir', bDir]);
          return r.code === 0 && (JSON.parse(r.out) as Array<{ id: string; machine: string; state: { agent?: string } }>).find((x) => x.id === row.run_id);
        },
        10_000,
        "A's run on B",
      );
      expect(runs).toMatchObject({ machine: 'cli-owner', state: { agent: 'ops-bot' } });
      expect((await nexusAsync(['runs', 'show', row.run_id, '--desk', '--data-dir', bDir])).code).toBe(2);
      const [n] = await postgresCount(pg.adminUrl, row.id);
      expect(n).toBe(1); // carol's refused answer left no row
    } finally {
      for (const p of [b, c]) {
        const exited = new Promise((r) => p.once('exit', r));
        p.kill('SIGTERM');
        await exited;
      }
      await a.close();
    }
  }, 90_000);
});

async function postgresCount(url: string, card: string): Promise<number[]> {
  const admin = postgres(url, { onnotice: () => {}, max: 1 });
  try {
    return (await admin`SELECT count(*)::int AS n FROM desk.answers WHERE card_id = ${card}`).map((r) => Number(r.n));
  } finally {
    await admin.end();
  }
}
