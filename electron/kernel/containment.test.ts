// Containment on the kernel's side: migration 005, process groups recorded before the command runs and
// killed at the next start (only when the pid's start time matches), default workspaces outside the data
// dir (an older one inside it kept), the gate that never runs a command the kernel did not record.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createNexus } from '../app.js';
import { migrate } from '../store/db.js';
import { MIGRATIONS } from '../store/migrations/index.js';
import { insertProcess, listProcesses } from '../store/queries/processes.js';
import { upsertAgent } from '../store/queries/agents.js';
import { prepareLaunch, processStartTime, withSeccompFd } from '../sandbox/index.js';
import type { ExecutorTool } from './types.js';
import { world } from '../../test/support/world.js';

let w = world();
let root: string;
const pids: number[] = [];
afterEach(async () => {
  await w.cleanup();
  w = world();
  for (const p of pids.splice(0)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});
const fresh = () => (root = realpathSync(w.dir('contain')));
const nexusAt = async (dataDir: string, extra: { workspacesDir?: string; env?: NodeJS.ProcessEnv; lock?: boolean } = {}) => {
  const n = await createNexus({ dataDir, modules: {}, ...extra });
  w.defer(() => n.close());
  return n;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const sleeper = () => {
  const c = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  c.unref();
  pids.push(c.pid!);
  return c.pid!;
};

describe('migration 005', () => {
  it('creates the processes table (pgid + start time identify a process)', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 5),
    );
    const cols = (db.prepare("SELECT name FROM pragma_table_info('processes')").all() as { name: string }[]).map((c) => c.name);
    expect(cols).toEqual(['pgid', 'start_time', 'row_id', 'what', 'created_at']);
    db.close();
  });
});

describe('nothing outlives the kernel', () => {
  it('a bash row records its process group before the command runs and forgets it once reaped', async () => {
    const n = await nexusAt(join(fresh(), 'data'));
    const run = n.kernel.createRun({ agent: null, mode: 'bypass' });
    const row = n.kernel.submitRow(run.id, { tool: 'bash', input: { command: 'sleep 0.5' }, origin: 'model' });
    const seen = await new Promise<ReturnType<typeof listProcesses>>((resolve) => {
      const t = setInterval(() => {
        const l = listProcesses(n.db);
        if (!l.length) return;
        clearInterval(t);
        resolve(l);
      }, 5);
    });
    expect(seen).toEqual([{ pgid: expect.any(Number), start_time: processStartTime(seen[0]!.pgid), row_id: row.id, what: 'bash' }]);
    expect((await n.kernel.waitRow(row.id)).state).toBe('succeeded');
    expect(listProcesses(n.db)).toEqual([]);
  });

  it('at start, recorded survivors are killed before rows are marked interrupted; a reused pid (other start time) is never killed', async () => {
    const dataDir = join(fresh(), 'data');
    const first = await nexusAt(dataDir, { lock: false });
    const hang: ExecutorTool = { name: 'hang', description: 'never ends', inputSchema: { type: 'object' }, run: () => new Promise(() => {}) };
    first.kernel.registerTool(hang);
    const run = first.kernel.createRun({ agent: null, mode: 'bypass' });
    const row = first.kernel.submitRow(run.id, { tool: 'hang', input: {}, origin: 'model' });
    const survivor = sleeper();
    const stranger = sleeper();
    insertProcess(first.db, { pgid: survivor, start_time: processStartTime(survivor)!, row_id: row.id, what: 'bash', now: 0 });
    insertProcess(first.db, { pgid: stranger, start_time: '1', row_id: null, what: 'bash', now: 0 });
    // A second kernel on the same store: the first one "crashed" with its row running.
    const second = await nexusAt(dataDir, { lock: false });
    expect(second.recovery.killed).toEqual([survivor]);
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(survivor)).toBe(false);
    expect(alive(stranger)).toBe(true);
    expect(listProcesses(second.db)).toEqual([]);
    expect(second.kernel.getRow(row.id)).toMatchObject({ state: 'failed', error: { code: 'interrupted', detail: expect.stringMatching(/killed at restart/) } });
  });
});

describe('workspaces live outside the data dir', () => {
  it('default <dataDir>-workspaces/<agent>; NEXUS_WORKSPACES_DIR or the option moves it', async () => {
    const dataDir = join(fresh(), 'data');
    const n = await nexusAt(dataDir);
    upsertAgent(n.db, { profile: { name: 'a', mode: 'ask', model: { provider: 'anthropic', baseURL: 'http://x', model: 'm' } }, now: 0 });
    expect(n.kernel.createRun({ agent: 'a', mode: 'ask' }).workspace).toBe(join(`${dataDir}-workspaces`, 'a'));
    await n.close();
    const viaEnv = await nexusAt(dataDir, { env: { NEXUS_WORKSPACES_DIR: join(root, 'ws-env') } });
    expect(viaEnv.kernel.createRun({ agent: 'a', mode: 'ask' }).workspace).toBe(join(root, 'ws-env', 'a'));
    await viaEnv.close();
    const viaOpt = await nexusAt(dataDir, { workspacesDir: join(root, 'ws-opt'), env: { NEXUS_WORKSPACES_DIR: join(root, 'ws-env') } });
    expect(viaOpt.kernel.createRun({ agent: null, mode: 'ask' }).workspace.startsWith(join(root, 'ws-opt'))).toBe(true);
  });
  it("an agent's older workspace inside the data dir is kept", async () => {
    const dataDir = join(fresh(), 'data');
    mkdirSync(join(dataDir, 'workspaces', 'old'), { recursive: true });
    const n = await nexusAt(dataDir);
    upsertAgent(n.db, { profile: { name: 'old', mode: 'ask', model: { provider: 'anthropic', baseURL: 'http://x', model: 'm' } }, now: 0 });
    const run = n.kernel.createRun({ agent: 'old', mode: 'ask' });
    expect(run.workspace).toBe(join(dataDir, 'workspaces', 'old'));
    // ... and its sandbox hides the rest of the data dir while binding the workspace back.
    const row = await n.kernel.waitRow(
      n.kernel.submitRow(run.id, { tool: 'bash', input: { command: `ls -A ${dataDir}; ls ${dataDir}/workspaces; echo ok > f` }, origin: 'author' }).id,
    );
    expect(row.state).toBe('succeeded');
    expect((row.result!.structuredContent as { stdout: string }).stdout).toBe('workspaces\nold\n');
    expect(existsSync(join(dataDir, 'workspaces', 'old', 'f'))).toBe(true);
  });
  it('a workspace that contains the data dir is refused', async () => {
    const dataDir = join(fresh(), 'data');
    const n = await nexusAt(dataDir);
    expect(() => n.kernel.createRun({ agent: null, mode: 'ask', workspace: root })).toThrow(/contains NEXUS's data folder/);
  });
});

describe('the gate', () => {
  it('a command whose "go" never comes (the kernel died first) never runs', async () => {
    const ws = join(fresh(), 'ws');
    mkdirSync(ws);
    for (const enabled of [true, false]) {
      const p = await prepareLaunch(
        [],
        { enabled, workspace: ws, hidden: [], networkAllow: [], envPassthrough: [], envWithheld: [] },
        { gate: true, commandLine: 'touch ran' },
      );
      if (!p.ok) throw new Error(p.refusal);
      const started = withSeccompFd(p.launch);
      const c = spawn(started.file, started.args, { cwd: ws, env: p.launch.env, stdio: ['pipe', 'ignore', 'ignore'] });
      c.stdin!.end();
      const code = await new Promise((r) => c.on('close', r));
      await p.launch.close();
      expect(code).toBe(125);
      expect(existsSync(join(ws, 'ran'))).toBe(false);
    }
  });
});

describe('the profile fields', () => {
  it("env_passthrough may not name the agent's provider-key variable, nor any NEXUS_* variable", async () => {
    const { saveAgent } = await import('../agents/profiles.js');
    const { AgentProfileInput } = await import('../../shared/api/agents.js');
    const n = await nexusAt(join(fresh(), 'data'));
    const model = { provider: 'chat-completions' as const, baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: 'OPENROUTER_API' };
    expect(() => saveAgent(n.kernel, { name: 'leaky', mode: 'ask', model, env_passthrough: ['OPENROUTER_API'] })).toThrow(/provider key/);
    expect(AgentProfileInput.safeParse({ name: 'x', mode: 'ask', model, env_passthrough: ['NEXUS_DATA_DIR'] }).success).toBe(false);
    expect(AgentProfileInput.safeParse({ name: 'x', mode: 'ask', model, network: { allow: ['http://evil'] } }).success).toBe(false);
    expect(
      AgentProfileInput.safeParse({ name: 'x', mode: 'ask', model, network: { allow: ['*.github.com'] }, sandbox: false, env_passthrough: ['GITHUB_TOKEN'] })
        .success,
    ).toBe(true);
  });
  it('`agents add` says what the agent may reach, and says plainly when the sandbox is off', async () => {
    const { sandboxLine } = await import('../cli/agents-commands.js');
    expect(sandboxLine({})).toBe('sandbox: on: writes only its workspace; network: none (no network)');
    expect(
      sandboxLine({
        network: { allow: ['api.github.com'] },
        mcpServers: { gh: { command: 'x', network: { allow: ['api.github.com'] } } },
        env_passthrough: ['GITHUB_TOKEN'],
      }),
    ).toBe('sandbox: on: writes only its workspace; network: api.github.com; MCP gh network: api.github.com; passes GITHUB_TOKEN');
    expect(sandboxLine({ sandbox: false })).toMatch(/^sandbox: OFF: its commands run unsandboxed/);
  });
});
