// DESIGN §5 end to end: the governance half of the `nexus` command (settings, entitlements, stop-all/resume,
// inbox/approve/deny of ORCHESTRATION holds and attention items, chains [clear], tasks show) against a real
// `nexus serve` process (built dist, fresh temp data dir), each command its own process, with `--json` and the
// exact field names DESIGN §5 lists. The agents' models are scripted over real HTTP in this process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { startScriptedModel, type ScriptedModel, type ScriptedReply, type ScriptedRequest } from '../support/scripted-model.js';
import { build, serve, type Served } from '../support/serve.js';

let s: Served;
const models: Record<string, ScriptedModel> = {};
const { privateKey, publicKey } = generateKeyPairSync('ed25519');

/** The JSON line a model read after a tool result's text (DESIGN §3). */
const structured = (text: string): Record<string, unknown> | null => {
  for (const l of text.split('\n').reverse()) {
    try {
      if (l.trim().startsWith('{')) return JSON.parse(l) as Record<string, unknown>;
    } catch {
      /* not the JSON line */
    }
  }
  return null;
};
const last = (r: ScriptedRequest) => r.toolResults.at(-1)?.text ?? '';

// lead: the prompt says `DELEGATE <command> CHECK <check>`; it hands `RUN: <command>` to mid with that check.
const lead = (req: ScriptedRequest): ScriptedReply => {
  if (req.toolResults.length) return { text: `lead read: ${last(req)}` };
  const m = /DELEGATE (.*) CHECK (.*)$/m.exec(req.userText);
  if (!m) return { text: 'lead: nothing to do' };
  return { toolCalls: [{ name: 'delegate_task', input: { agent: 'mid', task: `RUN: ${m[1]}`, acceptance_check: { command: m[2] } } }] };
};
// mid: runs the command of its task; reads a hold as "wait", retries when told APPROVED or REFUSED, reports the rest.
const mid = (req: ScriptedRequest): ScriptedReply => {
  const command = /RUN: ([^\n"]+)/.exec(req.transcript)?.[1] ?? 'true';
  if (/APPROVED|REFUSED/.test(req.userText)) return { toolCalls: [{ name: 'bash', input: { command } }] };
  if (req.toolResults.length) {
    const code = structured(last(req))?.code;
    if (code === 'hop_held') return { text: 'waiting for a person' };
    return { text: code ? `mid reports: ${String(code)}` : `mid done: ${last(req).split('\n')[0]}` };
  }
  if (/Your answer was not accepted/.test(req.userText)) return { text: 'mid tried again' };
  return { toolCalls: [{ name: 'bash', input: { command } }] };
};

const agentFile = (name: string) => {
  const file = join(s.dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ name, model: { provider: 'chat-completions', baseURL: models[name].baseURL, model: `scripted-${name}` }, mode: 'bypass' }),
  );
  return file;
};
type Run = {
  id: string;
  agent: string | null;
  status: string;
  created_at: string;
  waiting_on?: Array<{ request_id: string }>;
  rows: Array<{ id: string; origin: string; tool: string; state: string; error?: { code: string; detail: string } }>;
};
/** An agent's runs, oldest first. */
const runsOf = async (agent: string) =>
  (await s.json<Run[]>('runs', 'list')).filter((r) => r.agent === agent).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
/** The inbox items of a kind, or null while there are none (for `until`). */
const cards = async (kind: string) => {
  const list = (await s.json<Array<Record<string, unknown>>>('inbox')).filter((c) => c.kind === kind);
  return list.length ? list : null;
};
const settled = (id: string) =>
  s.until(`run ${id} to end`, async () => ((await s.json<Run>('runs', 'show', id)).status !== 'running' ? s.json<Run>('runs', 'show', id) : null));
const start = async (prompt: string) => (await s.json<{ id: string; agent: string; status: string }>('run', 'lead', prompt)).id;

beforeAll(async () => {
  build();
  models.lead = await startScriptedModel({ script: lead });
  models.mid = await startScriptedModel({ script: mid });
  s = await serve({ NEXUS_ENTITLEMENT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  for (const name of ['lead', 'mid']) expect((await s.nexus('agents', 'add', agentFile(name))).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await s?.stop();
  for (const m of Object.values(models)) await m.close();
});

describe('nexus settings get|set KEY VALUE (DESIGN §5: the six keys)', () => {
  it('settings get --json: the DESIGN §3 defaults under the six documented keys', async () => {
    expect(await s.json('settings', 'get')).toMatchObject({
      'orchestration.enabled': false,
      'orchestration.maxDepth': 3,
      'orchestration.maxAgents': 4,
      'orchestration.allowlist': [],
      'orchestration.perHopApproval': true,
      'approval.stopHookCap': 3,
    });
    expect(await s.json('settings', 'get', 'orchestration.perHopApproval')).toBe(true);
  });

  it('settings set: each of the six keys from its command-line text; the allowlist comma-separated', async () => {
    const set = (key: string, value: string) => s.json<Record<string, unknown>>('settings', 'set', key, value);
    expect((await set('orchestration.enabled', 'true'))['orchestration.enabled']).toBe(true);
    expect((await set('orchestration.maxDepth', '5'))['orchestration.maxDepth']).toBe(5);
    expect((await set('orchestration.maxAgents', '6'))['orchestration.maxAgents']).toBe(6);
    expect((await set('orchestration.allowlist', 'lead,mid'))['orchestration.allowlist']).toEqual(['lead', 'mid']);
    expect((await set('orchestration.perHopApproval', 'false'))['orchestration.perHopApproval']).toBe(false);
    expect((await set('approval.stopHookCap', '2'))['approval.stopHookCap']).toBe(2);
    // Read back from a fresh process: stored, not echoed.
    expect(await s.json('settings', 'get')).toMatchObject({
      'orchestration.enabled': true,
      'orchestration.maxDepth': 5,
      'orchestration.maxAgents': 6,
      'orchestration.allowlist': ['lead', 'mid'],
      'orchestration.perHopApproval': false,
      'approval.stopHookCap': 2,
    });
    // A bad value is refused (exit 1) and changes nothing; the empty allowlist is "".
    expect((await s.nexus('settings', 'set', 'orchestration.maxAgents', 'many')).code).toBe(1);
    expect((await s.nexus('settings', 'set', 'approval.stopHookCap', 'x')).code).toBe(1);
    expect((await set('orchestration.allowlist', ''))['orchestration.allowlist']).toEqual([]);
    // Back to the defaults for what follows (orchestration stays off until an entitlement is imported).
    for (const [k, v] of [
      ['orchestration.enabled', 'false'],
      ['orchestration.maxDepth', '3'],
      ['orchestration.maxAgents', '4'],
      ['orchestration.perHopApproval', 'true'],
      ['approval.stopHookCap', '3'],
    ])
      await set(k, v);
  });
});

describe('nexus entitlements import FILE|show', () => {
  it('show: absent at first; import of an EdDSA token signed by the account key entitles; show agrees', async () => {
    expect(await s.json('entitlements', 'show')).toMatchObject({ entitled: false });
    const file = join(s.dir, 'ent.jwt');
    writeFileSync(
      file,
      await new SignJWT({ ent: ['nexus.orchestration'], exp: Math.floor(Date.now() / 1000) + 3600 })
        .setProtectedHeader({ alg: 'EdDSA' })
        .setSubject('acct_spec')
        .sign(privateKey),
    );
    expect(await s.json('entitlements', 'import', file)).toMatchObject({ entitled: true, entitlements: ['nexus.orchestration'] });
    expect(await s.json('entitlements', 'show')).toMatchObject({ entitled: true });
    // A token signed by another key is refused; the previous state is kept.
    const other = generateKeyPairSync('ed25519').privateKey;
    writeFileSync(
      file,
      await new SignJWT({ ent: ['nexus.orchestration'], exp: Math.floor(Date.now() / 1000) + 3600 }).setProtectedHeader({ alg: 'EdDSA' }).sign(other),
    );
    expect((await s.nexus('entitlements', 'import', file)).code).toBe(1);
    expect(await s.json('entitlements', 'show')).toMatchObject({ entitled: true });
  });
});

describe('an orchestration hold through the command line', () => {
  let holdId = '';
  let chainId = '';

  it('inbox --json lists the hold: id (its request_id), kind orchestration, agent, tool, target, run_id, hop, chain_id', async () => {
    await s.json('settings', 'set', 'orchestration.enabled', 'true');
    await s.json('settings', 'set', 'orchestration.allowlist', 'lead');
    const leadRun = await start('DELEGATE echo one CHECK true');
    const [card] = await s.until('the hold card', () => cards('orchestration'));
    const [midRun] = await runsOf('mid');
    expect(card).toMatchObject({
      kind: 'orchestration',
      agent: 'mid',
      tool: 'bash',
      target: 'echo one',
      run_id: midRun!.id,
      hop: 2,
      chain_id: expect.stringMatching(/^chain_/),
    });
    holdId = card.id as string;
    chainId = card.chain_id as string;
    expect(holdId).toMatch(/^[0-9a-f]{32}$/);
    // What mid read: hop_held with that very request id.
    await s.until('mid to read the hold', async () => models.mid.requests.length >= 2);
    expect(structured(last(models.mid.requests[1]!))).toMatchObject({ code: 'hop_held', request_id: holdId, hop: 2, chain_id: chainId });
    // The human form names the hop.
    expect((await s.nexus('inbox')).out).toMatch(new RegExp(`${holdId}.*orchestration.*hop 2`));
    expect((await s.json<Run>('runs', 'show', leadRun)).status).toBe('running');
  });

  it('chains --json while it waits: chain_id, agents, hops[{hop, agent, action, target, verdict}] with awaiting_approval', async () => {
    const chains = await s.json<Array<Record<string, unknown>>>('chains');
    expect(chains).toHaveLength(1);
    expect(chains[0]).toMatchObject({
      chain_id: chainId,
      agents: ['lead', 'mid'],
      hops: [
        { hop: 1, agent: 'lead', action: 'delegate_task', target: 'mid', verdict: 'allowed' },
        { hop: 2, agent: 'mid', action: 'bash', target: 'echo one', verdict: 'awaiting_approval' },
      ],
    });
    expect((chains[0].hops as Array<Record<string, unknown>>)[0]).not.toHaveProperty('code');
  });

  it('approve ID (the request_id) --json: approved; the chain switches at once; the retry proceeds and the task completes', async () => {
    // mid's turn ended on "waiting": its run stays running (its task is open) and names the hold it waits on.
    await s.until(
      'mid to end its turn while it waits',
      async () => models.mid.requests.length >= 2 && (await runsOf('mid'))[0]?.waiting_on?.[0]?.request_id === holdId,
    );
    expect(await s.json('approve', holdId)).toEqual({ id: holdId, state: 'approved' });
    const [c] = await s.json<Array<{ hops: Array<{ verdict: string }> }>>('chains');
    expect(c!.hops[1]!.verdict).toBe('approved');
    const again = await s.nexus('approve', holdId);
    expect(again.code).toBe(1);
    const [leadRun] = await runsOf('lead');
    const done = await settled(leadRun!.id);
    expect(done).toMatchObject({ agent: 'lead', status: 'succeeded', rows: [{ origin: 'model', tool: 'delegate_task', state: 'succeeded' }] });
    const midRows = (await s.json<Run>('runs', 'show', (await runsOf('mid'))[0]!.id)).rows;
    expect(midRows.filter((r) => r.origin === 'model').map((r) => [r.tool, r.state, r.error?.code ?? null])).toEqual([
      ['bash', 'failed', 'hop_held'],
      ['bash', 'succeeded', null],
    ]);
  });

  it('tasks show ID --json: id, status, evidence[{command, exit_code, passed, output, at}]', async () => {
    const result = last(models.lead.requests.at(-1)!);
    const taskId = structured(result)?.task_id as string;
    expect(taskId).toBeTruthy();
    const task = await s.json<Record<string, unknown>>('tasks', 'show', taskId);
    expect(task).toMatchObject({ id: taskId, status: 'completed' });
    const evidence = task.evidence as Array<Record<string, unknown>>;
    expect(evidence).toHaveLength(1);
    expect(evidence[0]).toMatchObject({ command: 'true', exit_code: 0, passed: true, output: expect.any(String), at: expect.any(String) });
    expect(Date.parse(evidence[0]!.at as string)).not.toBeNaN();
    expect((await s.nexus('tasks', 'show', 'task_nope')).code).toBe(1);
  });

  it('deny ID --reason TEXT on a hold: refused; the agent is told with the reason; its retry reads hop_refused; chains says refused', async () => {
    const before = models.mid.requests.length;
    await start('DELEGATE echo two CHECK true');
    const [card] = await s.until('the second hold', () => cards('orchestration'));
    await s.until('mid to wait', async () => models.mid.requests.length >= before + 2 && (await runsOf('mid')).at(-1)?.waiting_on?.length);
    expect(await s.json('deny', card.id as string, '--reason', 'not today')).toEqual({ id: card.id, state: 'refused' });
    const leadRun = (await runsOf('lead')).at(-1);
    await settled(leadRun!.id);
    const told = models.mid.requests.slice(before).find((r) => /REFUSED/.test(r.userText));
    expect(told?.userText).toContain('not today');
    expect(models.mid.requests.slice(before).some((r) => structured(last(r))?.code === 'hop_refused')).toBe(true);
    const chains = await s.json<Array<{ chain_id: string; hops: Array<{ hop: number; target: string; verdict: string }> }>>('chains');
    expect(chains).toHaveLength(2);
    expect(chains[0]!.chain_id).not.toBe(chainId); // most recently active first
    expect(chains[0]!.hops[1]).toMatchObject({ hop: 2, target: 'echo two', verdict: 'refused' });
  });
});

describe('an attention item through the command line', () => {
  it('a delegated task refused past delegation.maxRefusals lists as kind attention with agent, tool, target, run_id', async () => {
    await s.json('settings', 'set', 'orchestration.perHopApproval', 'false');
    await s.json('settings', 'set', 'delegation.maxRefusals', '1');
    await start('DELEGATE echo three CHECK false');
    const [item] = await s.until('the attention item', () => cards('attention'));
    const midRun = (await runsOf('mid')).at(-1)!;
    expect(item).toMatchObject({
      id: expect.any(String),
      kind: 'attention',
      agent: 'mid',
      tool: 'delegate_task',
      target: 'RUN: echo three',
      run_id: midRun.id,
    });
    await s.json('settings', 'set', 'delegation.maxRefusals', '3');
  });
});

describe('nexus stop-all / resume', () => {
  it('stop-all --json force-stops every run in flight; status says so; every governed hop is denied orchestration_stopped until resume', async () => {
    const leadRun = await start('DELEGATE sleep 30 CHECK true');
    const midRun = await s.until('mid sleeping', async () => {
      const [r] = (await runsOf('mid')).filter((x) => x.status === 'running');
      if (!r) return null;
      const shown = await s.json<Run>('runs', 'show', r.id);
      return shown.rows.some((x) => x.tool === 'bash' && x.state === 'running') ? shown : null;
    });
    const stopped = await s.json<{ stopped_runs: number }>('stop-all');
    expect(stopped.stopped_runs).toBeGreaterThanOrEqual(2);
    expect(await s.json('status')).toMatchObject({ stop_all: true, runs_in_flight: 0 });
    expect((await s.json<Run>('runs', 'show', leadRun)).status).toBe('canceled');
    const mid = await s.json<Run>('runs', 'show', midRun.id);
    expect(mid.status).toBe('canceled');
    expect(mid.rows.find((r) => r.tool === 'bash')?.state).toBe('canceled');

    // Stop all's one rule (docs/orchestration-gate.md): nothing new runs until Resume, so a new chain cannot
    // even start its first hop; `nexus run` is refused with a sentence naming Resume.
    const refused = await s.nexus('run', 'lead', 'DELEGATE echo four CHECK true');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('Stop all is engaged: no run starts until you press Resume');

    const resumed = await s.json<Record<string, unknown>>('resume');
    expect(resumed['orchestration.stopAll']).toBe(false);
    expect(await s.json('status')).toMatchObject({ stop_all: false });
    const after = await start('DELEGATE echo five CHECK true');
    expect((await settled(after)).status).toBe('succeeded');
    const [c2] = await s.json<Array<{ hops: Array<{ hop: number; verdict: string }> }>>('chains');
    expect(c2!.hops[1]).toMatchObject({ hop: 2, verdict: 'allowed' });
  });
});

describe('nexus chains clear', () => {
  it('chains clear --json forgets the list, stops nothing and changes no limit', async () => {
    const settingsBefore = await s.json('settings', 'get');
    const n = (await s.json<unknown[]>('chains')).length;
    expect(n).toBeGreaterThan(1);
    expect(await s.json('chains', 'clear')).toEqual({ cleared: n });
    expect(await s.json('chains')).toEqual([]);
    expect(await s.json('settings', 'get')).toEqual(settingsBefore);
    expect((await s.nexus('chains')).out).toMatch(/No multi-agent chains/);
  });
});

describe('nexus agents add FILE (DESIGN §5 agent file: every field)', () => {
  it('an agent file with name, model{provider, baseURL, model, apiKeyEnv}, instructions, mode, approval_rules, lifecycle_hooks, tools, workspace, mcpServers is saved as written', async () => {
    const file = join(s.dir, 'full.json');
    const profile = {
      name: 'full',
      model: { provider: 'anthropic', baseURL: models.lead.anthropicBaseURL, model: 'scripted-full', apiKeyEnv: 'FULL_AGENT_KEY' },
      instructions: 'Be brief.',
      mode: 'rules',
      approval_rules: [
        { tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow' },
        { tool: 'write', path: 'path', match: '*.env', verdict: 'deny', reason: 'secrets' },
      ],
      lifecycle_hooks: { turn_start: [{ tool: 'bash', input: { command: 'true' } }], stop: [{ tool: 'bash', input: { command: 'true' }, timeout_s: 5 }] },
      tools: ['bash', 'read'],
      workspace: 'full-ws',
      mcpServers: { docs: { url: 'http://127.0.0.1:9/mcp' } },
    };
    writeFileSync(file, JSON.stringify(profile));
    const saved = await s.json<{ agent: Record<string, unknown> }>('agents', 'add', file);
    expect(saved.agent).toMatchObject({ name: 'full', mode: 'rules' });
    const shown = await s.json<Record<string, unknown>>('agents', 'show', 'full');
    expect(shown).toMatchObject({
      name: 'full',
      model: { provider: 'anthropic', baseURL: profile.model.baseURL, model: 'scripted-full', apiKeyEnv: 'FULL_AGENT_KEY' },
      instructions: 'Be brief.',
      mode: 'rules',
      approval_rules: profile.approval_rules,
      lifecycle_hooks: profile.lifecycle_hooks,
      tools: ['bash', 'read'],
      workspace: join(s.dir, 'full-ws'),
      mcpServers: profile.mcpServers,
    });
    expect((await s.json<Array<{ name: string }>>('agents', 'list')).map((a) => a.name)).toContain('full');
    expect(await s.json('agents', 'remove', 'full')).toMatchObject({ removed: true });
  });
});

describe('nexus run AGENT PROMPT --wait --json', () => {
  it('waits for the turn and prints the run in the runs show shape (id, agent, status, rows) with its answer', async () => {
    const done = await s.json<Record<string, unknown>>('run', 'lead', 'just say something', '--wait');
    expect(done).toMatchObject({ id: expect.stringMatching(/^run_/), agent: 'lead', status: 'succeeded', rows: [], final_answer: 'lead: nothing to do' });
  });
});
