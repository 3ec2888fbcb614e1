// An ACP agent NEXUS runs itself (the scripted agent in test/support/acp-agent.mjs, a real process speaking ACP
// over stdio through the SDK), inside the agent's bubblewrap sandbox: its permission request parks a card;
// approve → it runs the command; deny → it reads the rejection; its own read of the data dir fails; its
// fs/write_text_file is NEXUS's confined write; Stop all kills its process group.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { harness, type Harness } from '../../../test/support/kernel.js';
import { world, type World } from '../../../test/support/world.js';
import { dispatch } from '../../api/dispatch.js';
import { saveAgent } from '../../agents/profiles.js';
import { sandboxAvailability } from '../../sandbox/index.js';
import { listProcesses } from '../../store/queries/processes.js';
import type { ApprovalRule } from '../../../shared/types.js';
import { ORPHANED, startAcpRun } from './acp-run.js';
import { permissionAnswer } from './client-handlers.js';
import { endOrphanedAcpRuns } from './starter.js';

const FIXTURE = resolve(import.meta.dirname, '../../../test/support/acp-agent.mjs');
const sandboxed = sandboxAvailability().kind !== null;
let w: World;
let h: Harness;
let dir: string;

// Outside /tmp on purpose: the sandbox's private /tmp would hide a data dir there anyway; this one is hidden only
// because NEXUS hides its data dir. So it is made here, under /var/tmp, and only handed to the world to remove.
beforeEach(async () => {
  w = world();
  dir = w.own(mkdtempSync('/var/tmp/nexus-acp-'));
  h = await harness({ dir: join(dir, 'data'), modules: { governance: true, turns: true, external: true } });
  w.defer(() => h.cleanup());
});
afterEach(() => w.cleanup());

const profile = (rules: ApprovalRule[] = []) => ({
  name: 'scripted',
  mode: 'ask' as const,
  approval_rules: rules,
  model: { provider: 'anthropic' as const, baseURL: 'http://127.0.0.1:9', model: 'acp' },
  acp: { command: process.execPath, args: [FIXTURE] },
});
const save = (rules: ApprovalRule[] = []) => saveAgent(h.nexus.kernel, profile(rules));
const prompt = (o: Record<string, unknown>) => JSON.stringify({ peek: h.nexus.kernel.dataDir, command: 'echo ran > ran.txt; cat ran.txt', ...o });
const until = async (f: () => boolean, ms = 15_000) => {
  for (const t0 = Date.now(); !f() && Date.now() - t0 < ms;) await new Promise((r) => setTimeout(r, 20));
  expect(f()).toBe(true);
};
const cards = () => h.nexus.kernel.inbox.pending();
const answer = (run: { final_answer: string | null }) => JSON.parse(run.final_answer ?? '{}') as Record<string, string | null>;

describe('the answer to a permission request', () => {
  const opts = (...kinds: string[]) => kinds.map((kind) => ({ optionId: kind, name: kind, kind: kind as 'allow_once' }));
  it('allowed: allow once, never always; refused, missing or undecided: reject (or cancelled when none is offered)', () => {
    const granted = { state: 'succeeded' } as Parameters<typeof permissionAnswer>[0];
    const denied = { state: 'failed' } as Parameters<typeof permissionAnswer>[0];
    expect(permissionAnswer(granted, opts('allow_always', 'allow_once', 'reject_once'))).toEqual({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(permissionAnswer(granted, opts('allow_always', 'reject_always'))).toEqual({ outcome: { outcome: 'selected', optionId: 'reject_always' } });
    expect(permissionAnswer(denied, opts('allow_once', 'reject_once'))).toEqual({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
    expect(permissionAnswer(null, opts('allow_once'))).toEqual({ outcome: { outcome: 'cancelled' } });
  });
});

describe.skipIf(!sandboxed)('an ACP agent NEXUS runs in its sandbox', () => {
  it('parks its permission request; approved, it runs the command and its own read of the data dir fails', async () => {
    save();
    const { run, done } = startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({}) });
    await until(() => cards().length === 1);
    const card = cards()[0]!;
    expect(card).toMatchObject({ kind: 'autonomy', run_id: run.id });
    const row = h.nexus.kernel.getRow(card.id)!;
    expect(row).toMatchObject({ tool: 'bash', state: 'needs_approval', input: { command: 'echo ran > ran.txt; cat ran.txt' } });
    h.nexus.kernel.approve(card.id, { by: 'person:test' });
    const ended = await done;
    expect(ended.status).toBe('succeeded');
    const out = answer(ended);
    expect(out.permission).toBe('allow');
    expect(out.ran).toBe('ran');
    expect(existsSync(join(h.nexus.kernel.dataDir, 'nexus.db'))).toBe(true);
    expect(out.peek).toBe('refused: ENOENT');
    expect(readFileSync(join(run.workspace, 'ran.txt'), 'utf8')).toBe('ran\n');
    expect(h.nexus.kernel.getRow(card.id)).toMatchObject({ state: 'succeeded', granted_by: 'person' });
    expect(listProcesses(h.nexus.db)).toEqual([]);
  }, 30_000);

  it('the same agent unsandboxed ("sandbox": false) reads the data dir: the refusal above is the sandbox', async () => {
    saveAgent(h.nexus.kernel, { ...profile([{ tool: 'bash', verdict: 'allow' }]), sandbox: false });
    const out = answer(await startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({ command: 'true' }) }).done);
    expect(out.peek).toMatch(/^read [1-9]\d* entries; [1-9]\d* bytes of nexus.db$/);
  }, 30_000);

  it('fails closed: when NEXUS cannot decide (the gate throws), the agent is answered reject and runs nothing', async () => {
    save([{ tool: 'bash', verdict: 'allow' }]);
    h.nexus.kernel.setHopGate(() => {
      throw new Error('boom');
    });
    const { run, done } = startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({}) });
    const out = answer(await done);
    expect(out.permission).toBe('reject');
    expect(existsSync(join(run.workspace, 'ran.txt'))).toBe(false);
    expect(h.nexus.kernel.listRows(run.id)[0]).toMatchObject({ state: 'failed', error: { code: 'approval_error' } });
  }, 30_000);

  it('denied, the agent reads the rejection and runs nothing', async () => {
    save();
    const { run, done } = startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({}) });
    await until(() => cards().length === 1);
    h.nexus.kernel.deny(cards()[0]!.id, { by: 'person:test', reason: 'not now' });
    const out = answer(await done);
    expect(out.permission).toBe('reject');
    expect(out.ran).toBeNull();
    expect(existsSync(join(run.workspace, 'ran.txt'))).toBe(false);
  }, 30_000);

  it('a rule decides without a card; fs/write_text_file is NEXUS confined write (inside written, outside refused)', async () => {
    const ws = join(dir, 'ws');
    const outside = join(dir, 'outside.txt');
    saveAgent(h.nexus.kernel, {
      ...profile([
        { tool: 'bash', verdict: 'allow' },
        { tool: 'write', verdict: 'allow' },
      ]),
      workspace: ws,
    });
    const writes = [
      { path: join(ws, 'note.txt'), content: 'hello' },
      { path: outside, content: 'x' },
    ];
    const { run, done } = startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({ command: 'true', writes }) });
    const out = JSON.parse((await done).final_answer ?? '{}') as { permission: string; wrote: string[] };
    expect(out.permission).toBe('allow');
    expect(readFileSync(join(ws, 'note.txt'), 'utf8')).toBe('hello');
    // Outside the workspace NEXUS's write refuses (the agent reads the error); nothing is written there.
    expect(out.wrote[0]).toBe('ok');
    expect(out.wrote[1]).toMatch(/^refused: .*outside the workspace/);
    expect(existsSync(outside)).toBe(false);
    expect(h.nexus.kernel.listRows(run.id).map((r) => [r.tool, r.granted_by])).toContainEqual(['bash', 'rule']);
  }, 30_000);

  it('its terminal/create is a row of NEXUS bash, in the sandbox and the workspace', async () => {
    save([{ tool: 'bash', verdict: 'allow' }]);
    const { run, done } = startAcpRun(h.nexus.kernel, {
      agent: 'scripted',
      prompt: prompt({ command: 'true', terminal: `pwd; ls ${h.nexus.kernel.dataDir} | wc -l; exit 3` }),
    });
    const out = JSON.parse((await done).final_answer ?? '{}') as { terminal: { exit: number; output: string } };
    expect(out.terminal).toEqual({ exit: 3, output: `${run.workspace}\n0\n` });
    const bash = h.nexus.kernel.listRows(run.id).filter((r) => r.wire_tool === 'bash');
    expect(bash).toHaveLength(1);
    expect(bash[0]).toMatchObject({ granted_by: 'rule', state: 'failed' });
  }, 30_000);

  it('runsStart (`nexus run`, the window) starts it like any agent, and the run shows in Runs', async () => {
    save([{ tool: 'bash', verdict: 'allow' }]);
    const r = await dispatch(h.nexus.handlers, 'runsStart', { agent: 'scripted', prompt: prompt({ command: 'true' }) }, { door: 'internal' });
    if (!r.ok) throw new Error(r.error.message);
    const id = (r.value as { id: string }).id;
    await until(() => h.nexus.kernel.getRun(id)?.status === 'succeeded');
    expect(answer(h.nexus.kernel.getRun(id)!).permission).toBe('allow');
    const list = await dispatch(h.nexus.handlers, 'runsList', {}, { door: 'internal' });
    expect(JSON.stringify(list)).toContain(id);
  }, 30_000);

  it('closing NEXUS kills the agent and ends its run failed, its card closed; nothing is left for the next start', async () => {
    save();
    const { run } = startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({}) });
    await until(() => cards().length === 1);
    const [proc] = listProcesses(h.nexus.db);
    await h.nexus.close();
    expect(() => process.kill(proc!.pgid, 0)).toThrow();
    h = await harness({ dir: join(dir, 'data'), modules: { governance: true, turns: true, external: true } });
    await until(() => h.nexus.kernel.getRun(run.id)?.status === 'failed');
    expect(h.nexus.kernel.getRun(run.id)!.error).toBe(ORPHANED);
    expect(cards()).toEqual([]);
    expect(endOrphanedAcpRuns(h.nexus.kernel)).toEqual([]);
  }, 30_000);

  it('after a crash (no graceful close), the next start ends an ACP run still recorded running', async () => {
    save();
    const run = h.nexus.kernel.createRun({ agent: 'scripted', mode: 'ask', created_by: 'acp:scripted' });
    await h.nexus.close();
    h = await harness({ dir: join(dir, 'data'), modules: { governance: true, turns: true, external: true } });
    await until(() => h.nexus.kernel.getRun(run.id)?.status === 'failed');
    expect(h.nexus.kernel.getRun(run.id)!.error).toBe(ORPHANED);
  }, 30_000);

  it('Stop all cancels the session and kills its process group', async () => {
    save();
    const { done } = startAcpRun(h.nexus.kernel, { agent: 'scripted', prompt: prompt({}) });
    await until(() => cards().length === 1);
    const [proc] = listProcesses(h.nexus.db);
    expect(proc).toBeDefined();
    expect(await dispatch(h.nexus.handlers, 'stopAll', {}, { door: 'internal' })).toMatchObject({ ok: true });
    const ended = await done;
    expect(ended.status).toBe('canceled');
    expect(() => process.kill(proc!.pgid, 0)).toThrow();
    expect(listProcesses(h.nexus.db)).toEqual([]);
  }, 30_000);
});
