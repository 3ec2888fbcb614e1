// The governance commands of `nexus` against a real kernel through the real control socket (the socket door
// of a NEXUS on a fresh temp data dir); the command runs in process with its output captured.
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../cli/main.js';
import { startSocketDoor, type SocketDoor } from '../doors/socket.js';
import { saveAgent } from '../agents/profiles.js';
import { testNexus, type TestNexus } from '../../test/support/nexus.js';
import { startScriptedModel, type ScriptedModel } from '../../test/support/scripted-model.js';

let t: TestNexus | null = null;
let door: SocketDoor | null = null;
let models: ScriptedModel[] = [];
afterEach(async () => {
  await door?.close();
  await t?.close();
  for (const m of models) await m.close();
  t = null;
  door = null;
  models = [];
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--data-dir', t!.dataDir], { out: (s) => void (out += `${s}\n`), err: (s) => void (err += `${s}\n`) });
  return { code, out, err };
}
const json = async (...argv: string[]) => {
  const r = await cli(...argv, '--json');
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
};
const up = async () => {
  t = await testNexus({ modules: { turns: true, governance: true } });
  door = await startSocketDoor(t.nexus);
  return t;
};

describe('nexus settings / stop-all / resume / entitlements / chains / tasks', () => {
  it('settings get|set with per-key validation; the allowlist comma-separated', async () => {
    await up();
    expect(await json('settings', 'get')).toMatchObject({
      'orchestration.enabled': false,
      'orchestration.maxDepth': 3,
      'orchestration.maxAgents': 4,
      'orchestration.allowlist': [],
      'orchestration.perHopApproval': true,
    });
    expect((await json('settings', 'set', 'orchestration.allowlist', 'lead,mid'))['orchestration.allowlist']).toEqual(['lead', 'mid']);
    expect((await json('settings', 'set', 'orchestration.enabled', 'true'))['orchestration.enabled']).toBe(true);
    expect(await json('settings', 'get', 'orchestration.maxDepth')).toBe(3);
    const bad = await cli('settings', 'set', 'orchestration.maxDepth', 'deep');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/orchestration\.maxDepth must be a whole number.*invalid_setting/);
    const stopAll = await cli('settings', 'set', 'orchestration.stopAll', 'true');
    expect(stopAll.code).toBe(1);
    expect(stopAll.err).toMatch(/nexus stop-all/);
    // A misspelt key is a usage error that lists the keys (it was exit 1 with a zod enum dump).
    const typo = await cli('settings', 'set', 'orchestration.maxdepth', '2');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/unknown setting "orchestration\.maxdepth"[\s\S]*orchestration\.maxDepth N/);
    expect((await cli('settings', 'get', 'orchestration.nope')).code).toBe(2);
    expect(await json('settings', 'get', 'orchestration.maxDepth')).toBe(3); // nothing changed
    expect((await cli('settings', 'set', 'orchestration.enabled')).code).toBe(2);
    expect((await cli('settings', 'get')).out).toMatch(/orchestration\.allowlist = lead,mid/);
  });

  it('stop-all and resume', async () => {
    await up();
    t!.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    expect(await json('stop-all')).toEqual({ stopped_runs: 1 });
    expect(await json('status')).toMatchObject({ stop_all: true, runs_in_flight: 0 });
    expect((await cli('resume')).out).toMatch(/Resumed/);
    expect(await json('status')).toMatchObject({ stop_all: false });
  });

  it('entitlements import FILE | show; a bad token is refused and the previous state kept', async () => {
    await up();
    expect(await json('entitlements', 'show')).toMatchObject({ entitled: false, status: 'absent' });
    const file = join(t!.dataDir, 'ent.jwt');
    writeFileSync(file, `${await t!.account.token()}\n`);
    expect(await json('entitlements', 'import', file)).toMatchObject({ entitled: true, status: 'valid', entitlements: ['nexus.orchestration'] });
    writeFileSync(file, 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln');
    const bad = await cli('entitlements', 'import', file);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/only EdDSA.*entitlement_invalid/s);
    expect(await json('entitlements', 'show')).toMatchObject({ entitled: true });
    expect((await cli('entitlements', 'import', join(t!.dataDir, 'missing.jwt'))).code).toBe(1);
  });

  it('chains --json (DESIGN §5 shape), chains clear, tasks show ID --json with its evidence', async () => {
    await up();
    const lead = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'delegate_task', input: { agent: 'mid', task: 't', acceptance_check: { command: 'echo checked' } } }] },
        { text: 'lead done' },
      ],
    });
    const mid = await startScriptedModel({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'mid done' }] });
    models.push(lead, mid);
    for (const [name, m] of [
      ['lead', lead],
      ['mid', mid],
    ] as const)
      saveAgent(t!.nexus.kernel, { name, mode: 'bypass', model: { provider: 'chat-completions', baseURL: m.baseURL, model: 'm' } });
    const turns = t!.nexus.turns!;
    const run = turns.startTurn({ agent: 'lead', prompt: 'go' });
    for (let i = 0; i < 500 && t!.nexus.kernel.getRun(run.id)?.status === 'running'; i++) await new Promise((r) => setTimeout(r, 10));
    const chains = await json('chains');
    expect(chains).toEqual([
      {
        chain_id: expect.stringMatching(/^chain_/),
        agents: ['lead', 'mid'],
        hops: [
          { hop: 1, agent: 'lead', action: 'delegate_task', target: 'mid', verdict: 'allowed', at: expect.any(String) },
          { hop: 2, agent: 'mid', action: 'bash', target: 'echo hi', verdict: 'denied', code: 'orchestration_not_entitled', at: expect.any(String) },
        ],
        last_active_at: expect.any(String),
      },
    ]);
    expect((await cli('chains')).out).toMatch(/lead → mid[\s\S]*denied: orchestration_not_entitled/);
    const taskId = (t!.gov.db.prepare('SELECT id FROM tasks').get() as { id: string }).id;
    const task = await json('tasks', 'show', taskId);
    expect(task).toMatchObject({
      id: taskId,
      status: 'completed',
      evidence: [{ command: 'echo checked', exit_code: 0, passed: true, output: 'checked\n', at: expect.any(String) }],
    });
    expect((await cli('tasks', 'show', taskId)).out).toMatch(/PASSED {2}exit 0 .* checked/);
    expect((await cli('tasks', 'show', 'task_nope')).code).toBe(1);
    expect(await json('chains', 'clear')).toEqual({ cleared: 1 });
    expect(await json('chains')).toEqual([]);
  });
});
