// A connected client's session in process (real store, manual clock): the client's own tools (MCP, WebFetch)
// parked and carded like any call, one deadline for the row, the card and the approval_required event, the
// session's run ending at SessionEnd or when idle (and Stop all leaving an ended session alone), and the Runs
// list naming the client, its folder and its last call.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync } from 'node:fs';
import { harness, type Harness } from '../../test/support/kernel.js';
import { world, type World } from '../../test/support/world.js';
import { dispatch } from '../api/dispatch.js';

let w: World;
let h: Harness;
let project: string;

const event = (tool_name: string, tool_input: unknown, session_id = 'sess-1') => ({
  session_id,
  cwd: project,
  hook_event_name: 'PreToolUse',
  tool_name,
  tool_input,
  tool_use_id: 'toolu_1',
});
async function call<T>(method: string, input: unknown, door: 'internal' | 'socket' = 'internal'): Promise<T> {
  const r = await dispatch(h.nexus.handlers, method, input, { door });
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}
type Answer = { decision: string; reason: string; by: string; run_id: string; row_ids: string[] };
const ask = (ev: ReturnType<typeof event>, o: { client?: 'claude-code' | 'codex'; wait_ms?: number } = {}) =>
  call<Answer>('externalToolUse', { client: o.client ?? 'claude-code', event: ev, ...(o.wait_ms ? { wait_ms: o.wait_ms } : {}) }, 'socket');
const sessionEnd = (session_id: string, client: 'claude-code' | 'codex' = 'claude-code', reason = 'other') =>
  call<{ run_id: string | null; status: string | null }>(
    'externalSessionEnd',
    { client, event: { session_id, cwd: project, hook_event_name: 'SessionEnd', reason } },
    'socket',
  );
type Card = { id: string; tool: string; target: string; expires_at: string; effect: Record<string, unknown> };
const cards = () => call<Card[]>('inboxList', {});
const until = async (f: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await f()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await f()).toBe(true);
};
const run = (id: string) => h.nexus.kernel.getRun(id)!;
/** An allowed call, once its row is recorded as run by the client. */
const allowed = async (ev: ReturnType<typeof event>, client: 'claude-code' | 'codex' = 'claude-code') => {
  const a = await ask(ev, { client });
  expect(a.decision).toBe('allow');
  await until(() => a.row_ids.every((id) => h.nexus.kernel.getRow(id)?.state === 'succeeded'));
  return a;
};
/** An allowed call: the session's run exists and is running once it answers. */
const allowAll = async (client: 'claude-code' | 'codex' = 'claude-code') =>
  call('agentsSave', {
    name: `${client}-proj`,
    mode: 'rules',
    approval_rules: [{ tool: '*', verdict: 'allow' }],
    model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'x' },
    external: { client, project },
  });

beforeEach(async () => {
  w = world();
  h = await harness({ modules: { external: true, governance: true } });
  w.defer(() => h.cleanup());
  project = realpathSync(w.dir('ext-sess')) + '/proj';
  mkdirSync(project);
});
afterEach(() => w.cleanup());

describe("a client's own tools", () => {
  for (const [tool, input] of [
    ['mcp__everything__echo', { message: 'ping' }],
    ['WebFetch', { url: 'https://example.com', prompt: 'summarize' }],
    ['TaskCreate', { subject: 'write tests' }],
  ] as const) {
    it(`${tool} in mode ask parks with a card (name, input); Approve allows it`, async () => {
      const p = ask(event(tool, input));
      await until(async () => (await cards()).length === 1);
      const [card] = await cards();
      expect(card!.tool).toBe(tool);
      expect(card!.effect).toMatchObject({ tool, client: { name: 'claude-code', tool_name: tool } });
      expect(JSON.stringify(card!.effect)).toContain(Object.values(input)[0]);
      await call('inboxApprove', { id: card!.id });
      const a = await p;
      expect(a).toMatchObject({ decision: 'allow', by: 'person' });
      expect(h.nexus.kernel.getRow(a.row_ids[0]!)).toMatchObject({ state: 'succeeded', granted_by: 'person' });
    });
  }
});

describe('one deadline', () => {
  it("the row, the card and the approval_required event all carry the hook's deadline", async () => {
    const p = ask(event('Bash', { command: 'ls' }), { wait_ms: 825_000 });
    await until(async () => (await cards()).length === 1);
    const [card] = await cards();
    const due = new Date(h.clock.now() + 825_000).toISOString();
    expect(card!.expires_at).toBe(due);
    const row = h.nexus.kernel.getRow(card!.id)!;
    expect(row.expires_at).toBe(due);
    const events = await call<{ items: Array<{ type: string; data: { expires_at?: string } }> }>('runsEvents', { run_id: row.run_id });
    const required = events.items.filter((e) => e.type === 'approval_required');
    expect(required.map((e) => e.data.expires_at)).toEqual([due]);
    await call('inboxDeny', { id: card!.id });
    await p;
  });
});

describe('a session ends', () => {
  it('SessionEnd ends the run succeeded; Stop all then leaves it so; a later call of the session re-opens it', async () => {
    await allowAll();
    const a = await ask(event('Bash', { command: 'ls' }));
    expect(run(a.run_id).status).toBe('running');
    expect(await sessionEnd('sess-1', 'claude-code', 'prompt_input_exit')).toEqual({ run_id: a.run_id, status: 'succeeded' });
    expect(run(a.run_id)).toMatchObject({ status: 'succeeded', error: null });
    expect(run(a.run_id).final_answer).toContain('claude-code ended the session (prompt_input_exit)');
    await call('stopAll', {});
    expect(run(a.run_id).status).toBe('succeeded');
    await call('resume', {});
    const b = await ask(event('Bash', { command: 'pwd' }));
    expect(b).toMatchObject({ decision: 'allow', run_id: a.run_id });
    expect(run(a.run_id).status).toBe('running');
  });

  it('a SessionEnd NEXUS never saw a call of changes nothing; a window cannot send one', async () => {
    expect(await sessionEnd('never-seen', 'codex')).toEqual({ run_id: null, status: null });
    const r = await dispatch(
      h.nexus.handlers,
      'externalSessionEnd',
      { client: 'codex', event: { session_id: 'x', hook_event_name: 'SessionEnd' } },
      { door: 'web' },
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('a session with no call for clients.idleMinutes ends; one still waiting on a person does not', async () => {
    await allowAll('codex');
    const idle = await allowed(event('Bash', { command: 'ls' }, 'idle'), 'codex');
    await call('settingsSet', { key: 'clients.idleMinutes', value: 5 });
    h.clock.advance(4 * 60_000);
    const busy = await allowed(event('Bash', { command: 'ls' }, 'busy'), 'codex');
    h.clock.advance(2 * 60_000);
    expect(run(idle.run_id).status).toBe('succeeded');
    expect(run(idle.run_id).final_answer).toContain('no call for 5 min');
    expect(run(busy.run_id).status).toBe('running');
    // A parked call (its hook waits up to an hour) keeps its session open past the idle time.
    const waiting = ask(event('Bash', { command: 'ls' }, 'waiting'), { wait_ms: 3_600_000 });
    await until(async () => (await cards()).length === 1);
    h.clock.advance(10 * 60_000);
    expect(run(busy.run_id).status).toBe('succeeded');
    const [card] = await cards();
    expect(run(h.nexus.kernel.getRow(card!.id)!.run_id).status).toBe('running');
    await call('inboxApprove', { id: card!.id });
    expect(await waiting).toMatchObject({ decision: 'allow' });
  });

  it('the default idle time is 30 minutes', async () => {
    await allowAll();
    const a = await allowed(event('Bash', { command: 'ls' }));
    h.clock.advance(29 * 60_000);
    expect(run(a.run_id).status).toBe('running');
    h.clock.advance(2 * 60_000);
    expect(run(a.run_id).status).toBe('succeeded');
  });
});

describe('Runs', () => {
  it("a client session's run names the client, its folder and its last call", async () => {
    await allowAll();
    const first = await ask(event('Bash', { command: 'ls' }));
    h.clock.advance(1000);
    await ask(event('mcp__everything__echo', { message: 'hi' }));
    const runs = await call<Array<{ id: string; client?: Record<string, unknown> }>>('runsList', {});
    expect(runs[0]).toMatchObject({
      id: first.run_id,
      client: {
        name: 'claude-code',
        session_id: 'sess-1',
        folder: project,
        last_call: { tool: 'mcp__everything__echo', at: new Date(h.clock.now()).toISOString() },
      },
    });
  });
});

describe('a restart', () => {
  it("abandons a client's parked call (its hook was already answered) and leaves an agent's parked row waiting", async () => {
    const pending = ask(event('Bash', { command: 'ls' }), { wait_ms: 600_000 }).catch(() => null);
    await until(async () => (await cards()).length === 1);
    const [card] = await cards();
    const own = h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const parked = h.nexus.kernel.submitRow(own.id, { tool: 'bash', input: { command: 'true' }, origin: 'model' });
    expect(parked.state).toBe('needs_approval');
    await h.nexus.close();
    await pending;

    const again = await harness({ dir: h.dir, clock: h.clock, modules: { external: true, governance: true } });
    w.defer(() => again.cleanup());
    const k = again.nexus.kernel;
    await until(() => k.getRow(card!.id)?.state === 'timed_out');
    const events = (await dispatch(again.nexus.handlers, 'runsEvents', { run_id: k.getRow(card!.id)!.run_id }, { door: 'internal' })) as {
      ok: true;
      value: { items: Array<{ type: string; data: { row_id?: string } }> };
    };
    expect(events.value.items.filter((e) => e.type === 'client_call_abandoned').map((e) => e.data.row_id)).toEqual([card!.id]);
    expect(k.getRow(parked.id)!.state).toBe('needs_approval');
    expect(k.inbox.pending().map((c) => c.id)).toEqual([parked.id]);
  });
});
