// `nexus desk policy push`: the built command against `nexus serve --desk` kernels joined to a real cluster. A
// policy member's push is reported in words; anyone else is refused by the database, said in one sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
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

async function serveDesk(machine: string, role: string, person: string): Promise<string> {
  const dir = desk.dir(`cli-policy-${machine}`);
  const args = ['bin/nexus.cjs', 'serve', '--data-dir', dir, '--no-web', '--desk', pg.url(role), '--machine', machine, '--desk-person', person];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
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

describe.skipIf(!pgAvailable)('nexus desk policy push', () => {
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
    desk = await deskWorld();
    ({ pg } = desk);
    await desk.admin`GRANT pat TO laptop_a`;
  }, 120_000);
  afterAll(async () => desk?.destroy());

  it("publishes a policy member's settings, and says so in words", async () => {
    const dir = await serveDesk('cli-policy-a', 'laptop_a', 'pat');
    const r = await nexus(['desk', 'policy', 'push', '--data-dir', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(
      "Published to the desk's policy as pat: no agents and the settings (the allowlist among them). Every machine at the desk applies them.",
    );
    const j = await nexus(['desk', 'policy', 'push', '--json', '--data-dir', dir]);
    expect(JSON.parse(j.out)).toEqual({ keys: ['settings'], person: 'pat' });
  });

  it('refuses a person outside nexus_policy in one sentence, with a failing exit code', async () => {
    const dir = await serveDesk('cli-policy-b', 'laptop_b', 'bob');
    const r = await nexus(['desk', 'policy', 'push', '--data-dir', dir]);
    expect(r.code).not.toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain("The desk refused: bob is not a member of nexus_policy, so it may not change the desk's policy (nothing was changed).");
    expect((await nexus(['desk', 'policy', 'pull', '--data-dir', dir])).code).toBe(2);
  });
});
