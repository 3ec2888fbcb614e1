// The park (seed 000 "The park"): a parked row's addressee, frozen effect profile, 24 h clock, inbox card,
// run event and nudge; its four endings (approve, deny, the clock, a stop); trust for this session; executor
// revocation; agent removal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { harness, probe, record, type Harness } from '../../test/support/kernel.js';
import { createAgentRun, removeAgent, revokeExecutor, saveAgent } from '../agents/profiles.js';
import { APPROVAL_EXPIRED_TEXT, PARK_DURATION_MS, type AgentProfile } from '../../shared/types.js';
import { listRunEvents } from '../store/queries/events.js';
import { getAgentKeyRef } from '../store/queries/agents.js';

let h: Harness;
let p: ReturnType<typeof probe>;
beforeEach(async () => {
  h = await harness();
  p = probe(h.nexus);
});
afterEach(async () => h.cleanup());

const agent = (name: string, extra: Partial<AgentProfile> = {}): AgentProfile => ({
  name,
  model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKeyEnv: 'SOME_KEY' },
  mode: 'ask',
  ...extra,
});
const k = () => h.nexus.kernel;
const agentRun = (name: string, extra: Partial<AgentProfile> = {}) => {
  saveAgent(k(), agent(name, extra));
  return createAgentRun(k(), { agent: name, prompt: 'do it' });
};

describe('A parked row', () => {
  it('rests at needs_approval addressed to the agent application, with its effect profile, 24 h deadline, card, event and nudge', () => {
    const events = record(h.nexus);
    const run = agentRun('alice', { approval_rules: [{ tool: 'probe', verdict: 'ask', path: 'x', match: '*' }] });
    const row = k().submitRow(run.id, { tool: 'probe', input: { x: 'hello' }, origin: 'model' });
    expect(row.state).toBe('needs_approval');
    expect(row.addressee).toBe('executor:alice');
    expect(Date.parse(row.expires_at!)).toBe(h.clock.now() + PARK_DURATION_MS);
    expect(row.effect).toMatchObject({ agent: 'alice', tool: 'probe', target: '{"x":"hello"}', input: { x: 'hello' }, mode: 'ask', workspace: run.workspace });
    expect(row.effect!.matched_rules).toEqual([{ tool: 'probe', verdict: 'ask', path: 'x', match: '*' }]);
    const [card] = k().inbox.pending();
    expect(card).toMatchObject({
      id: row.id,
      kind: 'autonomy',
      agent: 'alice',
      tool: 'probe',
      target: '{"x":"hello"}',
      run_id: run.id,
      expires_at: row.expires_at,
      trustable: true,
    });
    expect(k().getRun(run.id)!.status).toBe('running');
    expect(listRunEvents(h.nexus.db, run.id).map((e) => e.type)).toContain('approval_required');
    expect(events).toContainEqual({
      type: 'run_event',
      run_id: run.id,
      event: 'approval_required',
      data: { row_id: row.id, tool: 'probe', target: '{"x":"hello"}', expires_at: row.expires_at },
    });
    expect(events).toContainEqual(expect.objectContaining({ type: 'work_available', kind: 'approval', item_id: row.id, agent: 'alice' }));
    expect(events).toContainEqual({ type: 'inbox_changed', pending: 1, added: [expect.objectContaining({ id: row.id, kind: 'autonomy' })] });
  });

  it("is addressed to nobody on a person's own standalone run (the member door alone)", () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    expect(row.addressee).toBeNull();
    expect(k().inbox.pending()[0]).toMatchObject({ agent: null, trustable: false });
  });

  it('freezes a unified diff for write (against the current file) in the effect profile', () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    writeFileSync(join(run.workspace, 'notes.txt'), 'one\ntwo\n');
    const row = k().submitRow(run.id, { tool: 'write', input: { path: 'notes.txt', content: 'one\nTWO\n' }, origin: 'model' });
    expect(row.effect!.target).toBe('notes.txt');
    expect(row.effect!.diff).toContain('--- a/notes.txt');
    expect(row.effect!.diff).toContain('-two');
    expect(row.effect!.diff).toContain('+TWO');
    // Frozen: a later change to the file does not change what the approver reads.
    writeFileSync(join(run.workspace, 'notes.txt'), 'changed\n');
    expect(k().getRow(row.id)!.effect!.diff).toContain('-two');
  });

  it('freezes a unified diff for edit (old_string → new_string)', () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    mkdirSync(join(run.workspace, 'src'));
    writeFileSync(join(run.workspace, 'src', 'a.ts'), 'const a = 1;\nconst b = 2;\n');
    const row = k().submitRow(run.id, {
      tool: 'Edit',
      input: { file_path: 'src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
      origin: 'model',
    });
    expect(row.tool).toBe('edit');
    expect(row.effect!.diff).toContain('-const b = 2;');
    expect(row.effect!.diff).toContain('+const b = 3;');
    expect(row.effect!.target).toBe('src/a.ts');
  });
});

describe('The park ends by approve', () => {
  it('approve records the row running (granted_by person) before it runs, then it runs', async () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const approved = k().approve(row.id, { by: 'person:test' });
    expect(approved.state).toBe('running');
    const done = await k().waitRow(row.id);
    expect(done.state).toBe('succeeded');
    expect(p.calls[0].stored).toMatchObject({ state: 'running', granted_by: 'person', approved_by: 'person:test' });
    expect(k().inbox.pending()).toHaveLength(0);
    expect(k().inbox.get(row.id)!.status).toBe('approved');
  });

  it('a second answer to the same card is a conflict, not a second run', async () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    await k().inbox.act(row.id, 'approve', { by: 'p' });
    await expect(k().inbox.act(row.id, 'approve', { by: 'p' })).rejects.toThrow(/no longer pending/);
    expect(() => k().deny(row.id, { by: 'p' })).toThrow(/not waiting/);
    await k().waitRow(row.id);
    expect(p.calls).toHaveLength(1);
  });
});

describe('The park ends by deny', () => {
  it('deny fails the row approval_denied with the reason as error.detail; it never runs', () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const denied = k().deny(row.id, { by: 'p', reason: 'not on a Friday' });
    expect(denied.state).toBe('failed');
    expect(denied.error).toEqual({ code: 'approval_denied', detail: 'not on a Friday' });
    expect(denied.result!.content[0].text).toContain('not on a Friday');
    expect(p.calls).toHaveLength(0);
  });
});

describe('The park ends by the clock', () => {
  it(`timed_out approval_expired after 24 h; the next round reads exactly "${APPROVAL_EXPIRED_TEXT}"`, async () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const waited = k().waitRow(row.id);
    h.clock.advance(PARK_DURATION_MS - 1);
    expect(k().getRow(row.id)!.state).toBe('needs_approval');
    h.clock.advance(1);
    const ended = await waited;
    expect(ended.state).toBe('timed_out');
    expect(ended.error).toEqual({ code: 'approval_expired', detail: APPROVAL_EXPIRED_TEXT });
    expect(ended.result).toEqual({ content: [{ type: 'text', text: 'Nobody approved this tool call before it expired.' }], isError: true });
    expect(k().inbox.get(row.id)!.status).toBe('expired');
    expect(k().getRun(run.id)!.status).toBe('running'); // on_failure continue (the default)
    expect(p.calls).toHaveLength(0);
  });

  it("under the row's own on_failure: fail_run fails the run", async () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model', on_failure: 'fail_run' });
    h.clock.advance(PARK_DURATION_MS);
    await new Promise((r) => setTimeout(r, 5));
    expect(k().getRow(row.id)!.state).toBe('timed_out');
    expect(k().getRun(run.id)!.status).toBe('failed');
  });

  it('an approval after expiry is refused', () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    h.clock.advance(PARK_DURATION_MS);
    expect(() => k().approve(row.id, { by: 'p' })).toThrow(/not waiting/);
  });

  it('each of several parks expires at its own deadline, earliest first, on one timer, even when the earliest is answered first', () => {
    const run = k().createRun({ agent: null, mode: 'ask' });
    const timers = h.clock.pending();
    const park = (n: number, park_ms?: number) => k().submitRow(run.id, { tool: 'probe', input: { n }, origin: 'model', park_ms });
    const late = park(1);
    const early = park(2, 1000);
    const mid = park(3, 5000);
    const twin = park(4, 5000);
    expect(h.clock.pending()).toBe(timers + 1);
    const ended: string[] = [];
    h.nexus.kernel.on((e) => {
      if (e.type === 'run_event' && e.event === 'approval_expired') ended.push((e.data as { row_id: string }).row_id);
    });
    k().deny(early.id, { by: 'p' });
    h.clock.advance(4999);
    expect([mid, twin, late].map((r) => k().getRow(r.id)!.state)).toEqual(['needs_approval', 'needs_approval', 'needs_approval']);
    h.clock.advance(1);
    expect(ended).toEqual([mid.id, twin.id]);
    h.clock.advance(PARK_DURATION_MS - 5001);
    expect(k().getRow(late.id)!.state).toBe('needs_approval');
    h.clock.advance(1);
    expect(ended).toEqual([mid.id, twin.id, late.id]);
    expect(k().getRow(early.id)!.state).toBe('failed');
    expect(h.clock.pending()).toBe(timers);
  });
});

describe('The park ends by a stop', () => {
  it('stopping the run cancels held rows and closes their cards; running tools are killed', async () => {
    const run = k().createRun({ agent: null, mode: 'ask', rules: [{ tool: 'bash', verdict: 'allow' }] });
    const held = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const sleeping = k().submitRow(run.id, { tool: 'bash', input: { command: 'sleep 30' }, origin: 'model' });
    expect(sleeping.state).toBe('running');
    const t0 = Date.now();
    const stopped = k().stopRun(run.id);
    expect(stopped.status).toBe('canceled');
    expect(k().getRow(held.id)).toMatchObject({ state: 'canceled', error: { code: 'canceled' } });
    expect((await k().waitRow(sleeping.id)).state).toBe('canceled');
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(k().inbox.get(held.id)!.status).toBe('canceled');
    expect(listRunEvents(h.nexus.db, run.id).map((e) => e.type)).toContain('run_stopped');
  });
});

describe('Trust for this session', () => {
  it("approving with trust relaxes that agent's own later parks (granted_by trust); deny rules still bind; others unaffected", async () => {
    const rules = [{ tool: 'probe', path: 'x', match: 'bad*', verdict: 'deny' as const, reason: 'never bad' }];
    const a = agentRun('alice', { approval_rules: rules });
    const first = k().submitRow(a.id, { tool: 'probe', input: { x: 'ok' }, origin: 'model' });
    k().approve(first.id, { by: 'p', trust_session: true });
    expect(k().trust.isTrusted('alice')).toBe(true);
    const later = k().submitRow(a.id, { tool: 'probe', input: { x: 'ok2' }, origin: 'model' });
    expect(later.state).toBe('running');
    expect(later.granted_by).toBe('trust');
    const denied = k().submitRow(a.id, { tool: 'probe', input: { x: 'bad thing' }, origin: 'model' });
    expect(denied.error).toEqual({ code: 'approval_denied', detail: 'never bad' });
    // Another run of the same agent is covered too; another agent is not.
    const a2 = createAgentRun(k(), { agent: 'alice' });
    expect(k().submitRow(a2.id, { tool: 'probe', input: {}, origin: 'model' }).granted_by).toBe('trust');
    const b = agentRun('bob');
    expect(k().submitRow(b.id, { tool: 'probe', input: {}, origin: 'model' }).state).toBe('needs_approval');
    await Promise.all([k().waitRow(first.id), k().waitRow(later.id)]);
  });

  it('ends with the kernel process: a new kernel on the same data parks again', async () => {
    const a = agentRun('alice');
    const first = k().submitRow(a.id, { tool: 'probe', input: {}, origin: 'model' });
    k().approve(first.id, { by: 'p', trust_session: true });
    await k().waitRow(first.id);
    const dir = h.dir;
    await h.nexus.close();
    const h2 = await harness({ dir, clock: h.clock });
    try {
      probe(h2.nexus);
      expect(h2.nexus.kernel.trust.isTrusted('alice')).toBe(false);
      const again = h2.nexus.kernel.submitRow(a.id, { tool: 'probe', input: {}, origin: 'model' });
      expect(again.state).toBe('needs_approval');
    } finally {
      await h2.nexus.close();
      h = { ...h, cleanup: async () => (await import('node:fs')).rmSync(dir, { recursive: true, force: true }) };
    }
  });
});

describe('Explicit executor revocation', () => {
  it("clears a held row's addressee (task_readdressed) instead of failing it; the person's door still answers", async () => {
    const events = record(h.nexus);
    const run = agentRun('alice');
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    expect(revokeExecutor(k(), 'alice')).toBe(1);
    const after = k().getRow(row.id)!;
    expect(after.state).toBe('needs_approval');
    expect(after.addressee).toBeNull();
    expect(k().inbox.get(row.id)!.addressee).toBeNull();
    // The pushed event carries the same data as the recorded one, detail included.
    const detail = "executor of alice revoked; the person's door still answers";
    expect(events).toContainEqual({
      type: 'run_event',
      run_id: run.id,
      event: 'task_readdressed',
      data: { row_id: row.id, from: 'executor:alice', to: null, detail },
    });
    expect(listRunEvents(h.nexus.db, run.id).find((e) => e.type === 'task_readdressed')!.data).toMatchObject({
      row_id: row.id,
      from: 'executor:alice',
      to: null,
    });
    // Later parks of the revoked executor are addressed to nobody too.
    expect(k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' }).addressee).toBeNull();
    await k().inbox.act(row.id, 'approve', { by: 'person:test' });
    expect((await k().waitRow(row.id)).state).toBe('succeeded');
  });
});

describe('Agent removal', () => {
  it('fences credentials and asynchronously force-stops its runs; held rows canceled through the ordinary stop path', async () => {
    const run = agentRun('alice');
    const row = k().submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const out = removeAgent(k(), 'alice');
    expect(out).toEqual({ removed: true, runs_stopped: 1 });
    expect(getAgentKeyRef(h.nexus.db, 'alice')).toEqual({ fenced: true, key_ref: null });
    expect(k().getRun(run.id)!.status).toBe('running'); // asynchronously
    const ended = await k().waitRow(row.id);
    expect(ended.state).toBe('canceled');
    expect(k().getRun(run.id)!.status).toBe('canceled');
    expect(k().inbox.get(row.id)!.status).toBe('canceled');
    expect(() => createAgentRun(k(), { agent: 'alice' })).toThrow(/removed/);
    expect(removeAgent(k(), 'alice')).toEqual({ removed: false, runs_stopped: 0 });
  });
});

describe('Tool results through the executor', () => {
  it('write then read round-trips in the workspace', async () => {
    const run = k().createRun({ agent: null, mode: 'bypass' });
    const w = await k().waitRow(k().submitRow(run.id, { tool: 'write', input: { path: 'd/f.txt', content: 'hi' }, origin: 'model' }).id);
    expect(w.state).toBe('succeeded');
    expect(readFileSync(join(run.workspace, 'd/f.txt'), 'utf8')).toBe('hi');
    const r = await k().waitRow(k().submitRow(run.id, { tool: 'read', input: { path: 'd/f.txt' }, origin: 'model' }).id);
    expect(r.result!.content[0].text).toBe('hi');
  });
});
