// `nexus desk init` and `nexus serve --desk` end to end: the built command against a real cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { pgAvailable, startCluster, type PgCluster } from '../support/pg-cluster.js';
import { createDeskRoles } from '../support/desk-roles.js';
import { removeDir, until } from '../support/desk.js';

const ROOT = resolve(import.meta.dirname, '../..');
const nexus = (args: string[]) => {
  try {
    return { code: 0, out: execFileSync(process.execPath, ['bin/nexus.cjs', ...args], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, out: x.stdout + x.stderr };
  }
};
let pg: PgCluster;

describe.skipIf(!pgAvailable)('nexus desk init, nexus serve --desk', () => {
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
    pg = await startCluster();
  }, 120_000);
  afterAll(async () => pg?.destroy());

  it('creates the schema, says the version, and a second run changes nothing', () => {
    const first = nexus(['desk', 'init', pg.adminUrl, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toEqual({ url: pg.adminUrl, version: 2, newest: 2 });
    expect(nexus(['desk', 'init', pg.adminUrl]).out).toMatch(/is at schema version 2/);
  });

  it('refuses a URL that is not postgres:// as a usage error, and never prints a password', () => {
    expect(nexus(['desk', 'init', 'http://x']).code).toBe(2);
    const r = nexus(['desk', 'init', `postgres://desk_admin:s3cret@127.0.0.1:1/desk`]);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('s3cret');
  });

  it('serve --desk --machine joins the desk as that machine', async () => {
    await createDeskRoles(pg.adminUrl);
    const dir = mkdtempSync(join(tmpdir(), 'nexus-desk-serve-'));
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
      removeDir(dir);
    }
  });
});
