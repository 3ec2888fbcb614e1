// Lifecycle hooks (seed 000 "Lifecycle hooks", DESIGN §4) as ordinary kernel rows, through the real kernel:
// turn_start before the first model call, stop hooks that continue (exit 2 / JSON) then accept, the cap,
// attention Retry / Abandon for a failing hook, and a force-stop that cancels hook work and asks nobody.
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSetting } from '../store/queries/settings.js';
import { listRunEvents } from '../store/queries/events.js';
import { turnsHarness, type TurnsHarness } from '../../test/support/turns.js';
import { startHttpMcpServer, type HttpMcpServer } from '../../test/support/mcp-http-server.js';

let h: TurnsHarness;
let mcp: HttpMcpServer | null = null;
afterEach(async () => {
  await h?.cleanup();
  await mcp?.close();
  mcp = null;
});

const types = (run_id: string) => listRunEvents(h.nexus.db, run_id).map((e) => e.type);
const bashHook = (command: string, timeout_s?: number) => ({ tool: 'bash', input: { command }, ...(timeout_s ? { timeout_s } : {}) });

describe('lifecycle hooks', () => {
  it("Hooks are independent of the model's declared tool list: turn_start hooks run as kernel rows before the first model call", async () => {
    h = await turnsHarness({ script: [{ text: 'hello' }] });
    h.agent({ name: 'starter', tools: ['read'], lifecycle_hooks: { turn_start: [bashHook('echo started > started.txt')] } });
    const run = h.turns.startTurn({ agent: 'starter', prompt: 'hi' });
    const ended = await h.ended(run.id);
    expect(ended.status).toBe('succeeded');
    const rows = h.nexus.kernel.listRows(run.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ origin: 'kernel', tool: 'bash', state: 'succeeded', granted_by: 'origin' });
    const ev = types(run.id);
    expect(ev.indexOf('hook_ended')).toBeLessThan(ev.indexOf('model_request'));
    // The model is shown only its own tools, not the hook's.
    expect(h.model.requests[0]!.toolNames).toEqual(['read']);
  });

  it('a Stop hook can request a bounded model continuation with feedback, then accept the candidate final answer (bash: exit 2 with stderr, then exit 0)', async () => {
    h = await turnsHarness({ script: [{ text: 'a first draft' }, { text: 'the final answer, tests included' }] });
    h.agent({
      name: 'drafter',
      lifecycle_hooks: { stop: [bashHook('if [ -f reviewed ]; then exit 0; fi; touch reviewed; echo "add the tests first" >&2; exit 2')] },
    });
    const run = h.turns.startTurn({ agent: 'drafter', prompt: 'write it' });
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'the final answer, tests included' });
    expect(h.model.requests).toHaveLength(2);
    expect(h.model.requests[1]!.userText).toContain('add the tests first');
    const hooks = h.nexus.kernel.listRows(run.id);
    // Exit 2 is the hook's answer (continue), not a failure: the row is recorded as succeeded, decision continue.
    expect(hooks.map((r) => [r.origin, r.tool, r.state, r.error?.code ?? null])).toEqual([
      ['kernel', 'bash', 'succeeded', null],
      ['kernel', 'bash', 'succeeded', null],
    ]);
    expect(hooks[0]!.result?.structuredContent).toMatchObject({ exit_code: 2, decision: 'continue' });
    expect(types(run.id).filter((t) => t === 'stop_hook_continue')).toHaveLength(1);
  });

  it('a stop hook may answer the JSON {"decision":"continue","feedback":…}', async () => {
    h = await turnsHarness({ script: [{ text: 'v1' }, { text: 'v2' }] });
    h.agent({
      name: 'jsonhook',
      lifecycle_hooks: {
        stop: [
          bashHook(`if [ -f once ]; then echo '{"decision":"accept"}'; else touch once; echo '{"decision":"continue","feedback":"cite your sources"}'; fi`),
        ],
      },
    });
    const ended = await h.ended(h.turns.startTurn({ agent: 'jsonhook', prompt: 'go' }).id);
    expect(ended.final_answer).toBe('v2');
    expect(h.model.requests[1]!.userText).toContain('cite your sources');
  });

  it('the stop-hook cap (approval.stopHookCap): after N continuations the answer is accepted and the cap reported', async () => {
    h = await turnsHarness({ script: (_req, i) => ({ text: `answer ${i + 1}` }) });
    writeSetting(h.nexus.db, 'approval.stopHookCap', 2, Date.now());
    h.agent({ name: 'capped', lifecycle_hooks: { stop: [bashHook('echo "never good enough" >&2; exit 2')] } });
    const run = h.turns.startTurn({ agent: 'capped', prompt: 'go' });
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'answer 3' });
    expect(h.model.requests).toHaveLength(3);
    const ev = listRunEvents(h.nexus.db, run.id);
    expect(ev.filter((e) => e.type === 'stop_hook_continue')).toHaveLength(2);
    expect(ev.find((e) => e.type === 'stop_hook_cap_reached')?.data).toMatchObject({ cap: 2 });
  });

  it('Hook failure follows the existing attention, retry, and abandon flow: Retry runs it again and the turn goes on', async () => {
    h = await turnsHarness({ script: [{ text: 'done' }] });
    const a = h.agent({ name: 'retrier', lifecycle_hooks: { turn_start: [bashHook('test -f ready.flag')] } });
    const run = h.turns.startTurn({ agent: 'retrier', prompt: 'go' });
    const failed = await h.row(run.id, (r) => r.state === 'failed');
    let items = (await h.api('inboxList', {})).value as Array<{ id: string; kind: string; target: string; message?: string; row_id?: string }>;
    for (let i = 0; i < 1000 && !items.length; i++) {
      await new Promise((r) => setTimeout(r, 10));
      items = (await h.api('inboxList', {})).value;
    }
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'attention', target: 'turn_start hook', row_id: failed.id });
    expect(items[0]!.message).toMatch(/turn_start hook \(bash\) failed/);
    // The card carries an effect like an autonomy card's, so the window can show the hook's command.
    const run0 = h.nexus.kernel.getRun(run.id)!;
    expect((items[0] as { effect?: unknown }).effect).toEqual({
      agent: 'retrier',
      tool: 'bash',
      target: 'test -f ready.flag',
      input: { command: 'test -f ready.flag' },
      matched_rules: [],
      workspace: run0.workspace,
      mode: run0.mode,
    });
    expect(h.model.requests).toHaveLength(0);
    writeFileSync(join(h.nexus.kernel.getRun(run.id)!.workspace, 'ready.flag'), '');
    expect((await h.api('inboxRetry', { id: items[0]!.id })).value).toEqual({ id: items[0]!.id, state: 'retried' });
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'done' });
    expect(h.nexus.kernel.listRows(run.id).map((r) => r.state)).toEqual(['failed', 'succeeded']);
    expect(a.name).toBe('retrier');
  });

  it('Abandon gives up the failing hook: a stop hook abandoned accepts the answer', async () => {
    h = await turnsHarness({ script: [{ text: 'the answer' }] });
    h.agent({ name: 'abandoner', lifecycle_hooks: { stop: [bashHook('exit 7')] } });
    const run = h.turns.startTurn({ agent: 'abandoner', prompt: 'go' });
    let items: Array<{ id: string; kind: string }> = [];
    for (let i = 0; i < 1000 && !items.length; i++) {
      await new Promise((r) => setTimeout(r, 10));
      items = (await h.api('inboxList', {})).value;
    }
    expect(items.map((i) => i.kind)).toEqual(['attention']);
    expect((await h.api('inboxAbandon', { id: items[0]!.id })).value.state).toBe('abandoned');
    expect(await h.ended(run.id)).toMatchObject({ status: 'succeeded', final_answer: 'the answer' });
    expect(types(run.id)).toContain('hook_abandoned');
  });

  it('Explicit force-stop cancels hook work and never asks it for permission: no attention item, the hook process is killed', async () => {
    h = await turnsHarness({ script: [{ text: 'candidate' }] });
    h.agent({ name: 'stopper', lifecycle_hooks: { stop: [bashHook('sleep 30', 60)] } });
    const run = h.turns.startTurn({ agent: 'stopper', prompt: 'go' });
    const hook = await h.row(run.id, (r) => r.state === 'running');
    const t0 = Date.now();
    expect((await h.api('runsStop', { id: run.id })).value.status).toBe('canceled');
    const ended = await h.ended(run.id);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(ended.status).toBe('canceled');
    expect(h.nexus.kernel.getRow(hook.id)!.state).toBe('canceled');
    expect((await h.api('inboxList', {})).value).toEqual([]);
    expect(types(run.id)).not.toContain('hook_failed');
  });

  it("Nexus freezes the declaration onto each execution: a profile edited mid-run does not change the run's hooks", async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo working' } }] }, { text: 'done' }] });
    h.agent({ name: 'frozen', mode: 'ask', lifecycle_hooks: { stop: [bashHook('echo frozen-hook')] } });
    const run = h.turns.startTurn({ agent: 'frozen', prompt: 'go' });
    const parked = await h.row(run.id, (r) => r.state === 'needs_approval');
    h.agent({ name: 'frozen', mode: 'ask', lifecycle_hooks: { stop: [bashHook('echo edited-hook')] } });
    await h.api('inboxApprove', { id: parked.id });
    await h.ended(run.id);
    const hooks = h.nexus.kernel.listRows(run.id).filter((r) => r.origin === 'kernel');
    expect(hooks.map((r) => (r.input as { command: string }).command)).toEqual(['echo frozen-hook']);
  });

  it('Turn-start and compaction hooks acknowledge their event; a deny rule naming kernel rows refuses a hook, which is a hook failure', async () => {
    h = await turnsHarness({ script: [{ text: 'ok' }] });
    h.agent({
      name: 'refused',
      approval_rules: [{ tool: 'bash', verdict: 'deny', origin: 'kernel', reason: 'no kernel shells here' }],
      lifecycle_hooks: { turn_start: [bashHook('echo hi')] },
    });
    const run = h.turns.startTurn({ agent: 'refused', prompt: 'go' });
    let items: Array<{ id: string; kind: string; message?: string }> = [];
    for (let i = 0; i < 1000 && !items.length; i++) {
      await new Promise((r) => setTimeout(r, 10));
      items = (await h.api('inboxList', {})).value;
    }
    expect(items[0]).toMatchObject({ kind: 'attention' });
    expect(items[0]!.message).toContain('no kernel shells here');
    await h.api('inboxAbandon', { id: items[0]!.id });
    expect(await h.ended(run.id)).toMatchObject({ status: 'succeeded', final_answer: 'ok' });
  });

  it("a stop hook may be any executor tool — here an MCP server's — answering the JSON decision; a hook past its timeout_s is a failure", async () => {
    let reviews = 0;
    let release: () => void = () => {};
    mcp = await startHttpMcpServer({
      review: { handler: () => (++reviews === 1 ? JSON.stringify({ decision: 'continue', feedback: 'mention the risks' }) : '{"decision":"accept"}') },
      stall: { handler: () => new Promise<string>((r) => (release = () => r('late'))) },
    });
    h = await turnsHarness({ script: [{ text: 'plan v1' }, { text: 'plan v2 with risks' }] });
    h.agent({
      name: 'reviewed',
      mcpServers: { reviewer: { url: mcp.url } },
      lifecycle_hooks: { stop: [{ tool: 'review', input: { message: 'check' } }], turn_start: [{ tool: 'stall', input: { message: 'x' }, timeout_s: 5 }] },
    });
    const run = h.turns.startTurn({ agent: 'reviewed', prompt: 'plan it' });
    // turn_start: the stalled hook fails when its timeout passes on the kernel clock.
    await h.row(run.id, (r) => r.tool === 'stall' && r.state === 'running');
    for (let i = 0; i < 50 && !types(run.id).includes('hook_started'); i++) await new Promise((r) => setTimeout(r, 10));
    h.clock.advance(5000);
    let items: Array<{ id: string; kind: string; message?: string }> = [];
    for (let i = 0; i < 1000 && !items.length; i++) {
      await new Promise((r) => setTimeout(r, 10));
      items = (await h.api('inboxList', {})).value;
    }
    expect(items[0]!.message).toMatch(/did not finish within 5 s/);
    release();
    await h.api('inboxAbandon', { id: items[0]!.id });
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'plan v2 with risks' });
    expect(h.model.requests[1]!.userText).toContain('mention the risks');
    expect(mcp.calls.filter((c) => c.tool === 'review')).toHaveLength(2);
    const hookRows = h.nexus.kernel.listRows(run.id).filter((r) => r.tool === 'review');
    expect(hookRows.every((r) => r.origin === 'kernel' && r.runner !== null)).toBe(true);
  });
});
