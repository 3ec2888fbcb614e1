// Two (or more) real kernels on their own data dirs, joined to one real desk cluster (test/support/pg-cluster.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createNexus, type Nexus } from '../../electron/app.js';
import { saveAgent, createAgentRun } from '../../electron/agents/profiles.js';
import type { DeskClient } from '../../electron/desk/client.js';
import { migrateDesk } from '../../electron/desk/pg/migrate.js';
import { createDeskRoles } from './desk-roles.js';
import { probe } from './kernel.js';
import type { PgCluster } from './pg-cluster.js';
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
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), `nexus-desk-${name}-`));
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

export const removeDir = (dir: string) => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}-workspaces`, { recursive: true, force: true });
};

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
