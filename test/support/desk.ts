// Two (or more) real kernels on their own data dirs, joined to one real desk cluster (test/support/pg-cluster.ts).
import postgres from 'postgres';
import { createNexus, type Nexus } from '../../electron/app.js';
import { saveAgent, createAgentRun } from '../../electron/agents/profiles.js';
import type { DeskClient } from '../../electron/desk/client.js';
import { migrateDesk } from '../../electron/desk/pg/migrate.js';
import { createDeskRoles } from './desk-roles.js';
import { probe } from './kernel.js';
import { startCluster, type PgCluster } from './pg-cluster.js';
import { removeDir, tempDir, world, type World } from './world.js';
import type { Row } from '../../electron/kernel/types.js';

export async function initDesk(pg: PgCluster): Promise<void> {
  const admin = postgres(pg.adminUrl, { onnotice: () => {}, max: 1 });
  await migrateDesk(admin);
  await admin.end();
  await createDeskRoles(pg.adminUrl);
}

export interface Machine {
  name: string;
  nexus: Nexus;
  desk: DeskClient;
  dir: string;
  probe: ReturnType<typeof probe>;
  /** Park a `probe` call of ops-bot (a team_ops agent) on this machine. */
  park(x?: string): Row;
  close(): Promise<void>;
  reopen(): Promise<Machine>;
}

export async function machine(pg: Pick<PgCluster, 'url'>, name: string, role: string, person: string, dir?: string, silenceStopS = 10): Promise<Machine> {
  const dataDir = dir ?? tempDir(`desk-${name}`);
  const nexus = await createNexus({
    dataDir,
    env: {},
    modules: { governance: true },
    desk: { url: pg.url(role), machine: name, person, heartbeatMs: 100, silenceStopS },
  });
  const p = probe(nexus);
  saveAgent(nexus.kernel, {
    name: 'ops-bot',
    model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKeyEnv: 'SOME_KEY' },
    mode: 'ask',
  });
  const run = createAgentRun(nexus.kernel, { agent: 'ops-bot', prompt: 'do it' });
  let n = 0;
  const m: Machine = {
    name,
    nexus,
    desk: nexus.desk!,
    dir: dataDir,
    probe: p,
    park: (x = `${name}-${n++}`) => nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x }, origin: 'model' }),
    close: () => nexus.close(),
    reopen: async () => machine(pg, name, role, person, dataDir, silenceStopS),
  };
  return m;
}

export { removeDir };

/** A desk test's world: one cluster for the file, and per test the machines, kernels and dirs it opened. */
export interface DeskWorld {
  pg: PgCluster;
  /** One connection as the cluster's superuser. */
  admin: postgres.Sql;
  /** `base` plus this test's number: a machine name stays bound to the data dir that first joined with it. */
  named(base: string): string;
  /** A machine at the desk (test/support/desk.ts `machine`), closed and its data dir removed after the test. */
  machine(name: string, role: string, person: string, opts?: { dir?: string; silenceStopS?: number }): Promise<Machine>;
  /** A fresh temp dir removed after the test. */
  dir(label: string): string;
  /** Remove `dir` after the test too. */
  own(dir: string): string;
  /** Run `f` after the test (close what the test opened by hand), before its dirs go. */
  defer(f: () => void | Promise<void>): void;
  /** After each test: close what it opened, remove its dirs, start the cluster again if the test stopped it. */
  reset(): Promise<void>;
  /** After all: reset, then stop the cluster and remove it. */
  destroy(): Promise<void>;
}

/** `init`: migrate the desk schema and make the test roles (default true; `nexus desk init` tests say false). */
export async function deskWorld(opts: { init?: boolean } = {}): Promise<DeskWorld> {
  const pg = await startCluster();
  if (opts.init !== false) await initDesk(pg);
  const admin = postgres(pg.adminUrl, { onnotice: () => {}, max: 1 });
  let round: World = world();
  let n = 0;
  return {
    pg,
    admin,
    named: (base) => `${base}${n}`,
    async machine(name, role, person, o = {}) {
      const m = await machine(pg, name, role, person, o.dir, o.silenceStopS);
      round.own(m.dir);
      round.defer(() => m.close());
      return m;
    },
    dir: (label) => round.dir(label),
    own: (dir) => round.own(dir),
    defer: (f) => round.defer(f),
    async reset() {
      const done = round;
      round = world();
      n++;
      await done.cleanup();
      await pg.start().catch(() => {}); // a test that stopped the cluster leaves it running again
    },
    async destroy() {
      await round.cleanup();
      await admin.end();
      await pg.destroy();
    },
  };
}

/** Poll until `f` returns a truthy value (real clocks, real sockets: things arrive in milliseconds). */
export async function until<T>(f: () => T | Promise<T>, ms = 10_000, what = 'condition'): Promise<NonNullable<Awaited<T>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v as NonNullable<Awaited<T>>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
