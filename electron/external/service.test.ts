// The stage answering a connected client's hook, in process (real store, manual clock): allow, deny with the
// rule's reason, park → approve / deny / expiry / the hook going away, Stop all, a patch judged file by file,
// the session's run frozen at its first call, and a card nobody waits for after a restart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness, type Harness } from '../../test/support/kernel.js';
import { world, type World } from '../../test/support/world.js';
import { dispatch } from '../api/dispatch.js';
import { saveAgent } from '../agents/profiles.js';
import type { ApprovalRule } from '../../shared/types.js';

let w: World;
let h: Harness;
let project: string;

const event = (tool_name: string, tool_input: unknown, session_id = 'sess-1', extra: Record<string, unknown> = {}) => ({
  session_id,
  cwd: project,
  hook_event_name: 'PreToolUse',
  tool_name,
  tool_input,
  tool_use_id: 'toolu_1',
  ...extra,
});
async function ask(ev: ReturnType<typeof event>, opts: { client?: 'claude-code' | 'codex'; wait_ms?: number; signal?: AbortSignal } = {}) {
  const r = await dispatch(
    h.nexus.handlers,
    'externalToolUse',
    { client: opts.client ?? 'claude-code', event: ev, ...(opts.wait_ms ? { wait_ms: opts.wait_ms } : {}) },
    { door: 'socket', signal: opts.signal },
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { decision: string; reason: string; by: string; agent: string; run_id: string; row_ids: string[] };
}
const agent = (rules: ApprovalRule[], mode: 'ask' | 'rules' | 'bypass' = 'ask', client: 'claude-code' | 'codex' = 'claude-code') =>
  saveAgent(h.nexus.kernel, {
    name: `${client}-proj`,
    mode,
    approval_rules: rules,
    model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'x' },
    external: { client, project },
  });
const pending = () => h.nexus.kernel.pendingCount();
const until = async (f: () => boolean) => {
  for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(f()).toBe(true);
};

beforeEach(async () => {
  // Governance too: Stop all is its switch (pressed through the API below).
  w = world();
  h = await harness({ modules: { external: true, governance: true } });
  w.defer(() => h.cleanup());
  project = join(w.dir('ext-proj'), 'proj');
  mkdirSync(project);
});
afterEach(() => w.cleanup());

describe('externalToolUse', () => {
  it('creates the agent claude-code-<folder> (mode ask) and one run per session', async () => {
    const first = ask(event('Bash', { command: 'ls' }));
    await until(() => pending() === 1);
    const agentRow = h.nexus.db.prepare('SELECT name, mode FROM agents').all();
    expect(agentRow).toEqual([{ name: 'claude-code-proj', mode: 'ask' }]);
    const card = (await dispatch(h.nexus.handlers, 'inboxList', {}, { door: 'internal' })) as {
      ok: true;
      value: Array<{ id: string; effect: Record<string, unknown> }>;
    };
    expect(card.value[0]!.effect).toMatchObject({ tool: 'bash', target: 'ls', client: { name: 'claude-code', session_id: 'sess-1', tool_name: 'Bash' } });
    h.nexus.kernel.approve(card.value[0]!.id, { by: 'person:test' });
    const a = await first;
    expect(a).toMatchObject({ decision: 'allow', by: 'person', agent: 'claude-code-proj' });
    agent([{ tool: 'read', verdict: 'allow' }]);
    const b = ask(event('Read', { file_path: join(project, 'x') }));
    // Frozen at the session's first call: the rule saved after it does not apply to this session (it asks)...
    await until(() => pending() === 1);
    const held = h.nexus.db.prepare("SELECT id, run_id FROM inbox WHERE status = 'pending'").get() as { id: string; run_id: string };
    expect(held.run_id).toBe(a.run_id);
    h.nexus.kernel.deny(held.id, { by: 'person:test' });
    expect((await b).decision).toBe('deny');
    // ...but a new session freezes the new rules.
    const c = await ask(event('Read', { file_path: join(project, 'x') }, 'sess-2'));
    expect(c).toMatchObject({ decision: 'allow', by: 'rule' });
    expect(c.run_id).not.toBe(a.run_id);
  });

  it('allow by rule: allowed at once, recorded as run by the client, never by NEXUS', async () => {
    agent([{ tool: 'bash', path: 'command', match: 'touch *', verdict: 'allow' }]);
    const a = await ask(event('Bash', { command: 'touch made-by-client' }));
    expect(a).toMatchObject({ decision: 'allow', by: 'rule' });
    await until(() => h.nexus.kernel.getRow(a.row_ids[0]!)?.state === 'succeeded');
    const row = h.nexus.kernel.getRow(a.row_ids[0]!)!;
    expect(row.result!.structuredContent).toMatchObject({ executed_by: 'client', client: 'claude-code' });
    // NEXUS did not run the command.
    expect(existsSync(join(project, 'made-by-client'))).toBe(false);
  });

  it('deny by rule: the reason is what the model reads', async () => {
    agent([{ tool: 'bash', path: 'command', match: 'rm *', verdict: 'deny', reason: 'No deleting here.' }]);
    const a = await ask(event('Bash', { command: 'rm -rf x' }));
    expect(a).toMatchObject({ decision: 'deny', by: 'rule' });
    expect(a.reason).toBe('NEXUS denied this call: No deleting here.');
  });

  it('a person denies with a reason', async () => {
    const p = ask(event('Bash', { command: 'ls' }));
    await until(() => pending() === 1);
    const id = h.nexus.db.prepare('SELECT id FROM inbox').get() as { id: string };
    h.nexus.kernel.deny(id.id, { by: 'person:test', reason: 'Not now.' });
    expect(await p).toMatchObject({ decision: 'deny', by: 'person', reason: 'A person denied this call in NEXUS: Not now.' });
  });

  it("the card expires at the hook's deadline (not 24 h) and the answer says nobody approved it", async () => {
    const p = ask(event('Bash', { command: 'ls' }), { wait_ms: 60_000 });
    await until(() => pending() === 1);
    const card = h.nexus.db.prepare('SELECT expires_at FROM inbox').get() as { expires_at: number };
    expect(card.expires_at).toBe(h.clock.now() + 60_000);
    h.clock.advance(60_000);
    const a = await p;
    expect(a).toMatchObject({ decision: 'deny', by: 'expiry' });
    expect(a.reason).toMatch(/^Nobody approved this call in time: NEXUS waited 60 seconds/);
    expect(pending()).toBe(0);
  });

  it('the hook going away closes the card: no card approves nothing', async () => {
    const ac = new AbortController();
    const p = ask(event('Bash', { command: 'ls' }), { signal: ac.signal });
    await until(() => pending() === 1);
    ac.abort();
    const a = await p;
    expect(a).toMatchObject({ decision: 'deny', by: 'nexus' });
    expect(pending()).toBe(0);
    const row = h.nexus.kernel.getRow(a.row_ids[0]!)!;
    expect(row.state).toBe('failed');
  });

  it('Stop all: denied with its sentence, no row', async () => {
    expect(await dispatch(h.nexus.handlers, 'stopAll', {}, { door: 'internal' })).toMatchObject({ ok: true });
    const a = await ask(event('Bash', { command: 'ls' }));
    expect(a).toMatchObject({ decision: 'deny', by: 'stop_all', row_ids: [] });
    expect(a.reason).toContain('Stop all is engaged');
  });

  it('a Codex patch is judged file by file: one refused file refuses the patch', async () => {
    agent(
      [
        { tool: 'write|edit', path: 'path', match: 'src/*', verdict: 'allow' },
        { tool: 'edit', path: 'path', match: '/etc/*', verdict: 'deny', reason: 'not /etc' },
      ],
      'ask',
      'codex',
    );
    const patch = '*** Begin Patch\n*** Add File: src/a.ts\n+x\n*** Update File: /etc/hosts\n@@\n-a\n+b\n*** End Patch\n';
    const a = await ask(event('apply_patch', { command: patch }), { client: 'codex' });
    expect(a).toMatchObject({ decision: 'deny', by: 'rule', reason: 'NEXUS denied this call: not /etc' });
    expect(a.row_ids).toHaveLength(2);
    const ok = await ask(event('apply_patch', { command: '*** Begin Patch\n*** Add File: src/b.ts\n+y\n*** End Patch\n' }, 'sess-2'), { client: 'codex' });
    expect(ok).toMatchObject({ decision: 'allow', by: 'rule' });
  });

  it("the card shows the diff: a Claude Code Write against the file on disk, a Codex patch as that file's part", async () => {
    writeFileSync(join(project, 'notes.txt'), 'line one\n');
    const w = ask(event('Write', { file_path: join(project, 'notes.txt'), content: 'line one\nline two\n' }));
    await until(() => pending() === 1);
    const cards = () =>
      (h.nexus.db.prepare("SELECT data_json FROM inbox WHERE status = 'pending'").all() as Array<{ data_json: string }>).map(
        (r) => JSON.parse(r.data_json).effect,
      );
    expect(cards()[0]).toMatchObject({ tool: 'write', target: 'notes.txt', diff: expect.stringContaining('+line two') });
    h.nexus.kernel.deny((h.nexus.db.prepare('SELECT id FROM inbox').get() as { id: string }).id, { by: 'person:test' });
    await w;
    const patch = '*** Begin Patch\n*** Add File: new.txt\n+hello\n*** End Patch\n';
    const p = ask(event('apply_patch', { command: patch }, 'sess-9'), { client: 'codex' });
    await until(() => pending() === 1);
    expect(cards()[0]).toMatchObject({
      tool: 'write',
      target: 'new.txt',
      diff: '*** Add File: new.txt\n+hello',
      client: { name: 'codex', tool_name: 'write' },
    });
    h.nexus.kernel.deny((h.nexus.db.prepare("SELECT id FROM inbox WHERE status = 'pending'").get() as { id: string }).id, { by: 'person:test' });
    await p;
  });

  it('Claude Code: a PermissionRequest for a call NEXUS just allowed is that call (its own prompt): allowed without a second row', async () => {
    agent([{ tool: 'bash', verdict: 'allow' }], 'ask');
    const a = await ask(event('Bash', { command: 'echo hi' }));
    expect(a.decision).toBe('allow');
    const pr = await ask({ ...event('Bash', { command: 'echo hi' }), hook_event_name: 'PermissionRequest' });
    expect(pr).toMatchObject({ decision: 'allow', row_ids: [] });
  });

  it('Codex: a PermissionRequest after an allowed call is an escalation: a new row, parked as an escape, though a rule allows bash', async () => {
    agent([{ tool: 'bash', verdict: 'allow' }], 'ask', 'codex');
    expect((await ask(event('Bash', { command: 'echo hi' }), { client: 'codex' })).decision).toBe('allow');
    const ac = new AbortController();
    const asked = ask(
      { ...event('Bash', { command: 'echo hi', description: 'may I?' }), hook_event_name: 'PermissionRequest' },
      { client: 'codex', wait_ms: 60_000, signal: ac.signal },
    );
    for (let i = 0; i < 200 && h.nexus.kernel.pendingCount() === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const list = await dispatch(h.nexus.handlers, 'inboxList', {}, { door: 'internal' });
    expect(list).toMatchObject({ ok: true, value: [{ escape: expect.stringMatching(/Codex asks to run this Bash call outside its sandbox/) }] });
    ac.abort();
    expect(await asked).toMatchObject({ decision: 'deny' });
  });

  it('refuses a folder that does not exist (never creates it)', async () => {
    const a = await ask({ ...event('Bash', { command: 'ls' }), cwd: join(project, 'nope') });
    expect(a).toMatchObject({ decision: 'deny', by: 'nexus' });
    expect(a.reason).toMatch(/is not an existing folder/);
  });

  it('a window cannot answer for a client', async () => {
    const r = await dispatch(h.nexus.handlers, 'externalToolUse', { client: 'codex', event: event('Bash', { command: 'ls' }) }, { door: 'web' });
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('an agent of a connected client cannot be started as a NEXUS run', async () => {
    agent([]);
    const r = await dispatch(h.nexus.handlers, 'runsStart', { agent: 'claude-code-proj', prompt: 'x' }, { door: 'internal' });
    expect(r.ok).toBe(false);
  });
});

describe('after a restart', () => {
  it('a client call still parked is expired (its hook was answered when NEXUS stopped); a granted row never runs a kernel tool', async () => {
    const dir = h.dir;
    const p = ask(event('Bash', { command: 'touch should-not-exist' }));
    await until(() => pending() === 1);
    await h.nexus.close();
    await p.catch(() => undefined); // the hook would have read "NEXUS closed the connection"
    const h2 = await harness({ dir, modules: { external: true } });
    try {
      await until(() => h2.nexus.kernel.pendingCount() === 0);
      // Without the client executor, a client run's granted row is refused, never run by a kernel tool.
      const bare = await harness({ dir: w.dir('bare') });
      const run = bare.nexus.kernel.createRun({ agent: null, mode: 'bypass', workspace: project, created_by: 'client:claude-code:s' });
      const row = bare.nexus.kernel.submitRow(run.id, { tool: 'Bash', input: { command: 'touch should-not-exist' }, origin: 'model' });
      const ended = await bare.nexus.kernel.waitRow(row.id);
      expect(ended.error?.code).toBe('no_client_executor');
      expect(existsSync(join(project, 'should-not-exist'))).toBe(false);
      await bare.cleanup();
    } finally {
      await h2.nexus.close();
    }
  });
});
