// The composition root and the kernel's lifecycle: one kernel per data dir, clean close, API waits.
import { afterEach, describe, expect, it } from 'vitest';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import { createNexus } from '../app.js';
import { dispatch } from '../api/dispatch.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.cleanup();
  h = null;
});

describe('createNexus', () => {
  it('a second kernel on the same data dir refuses clearly (lock)', async () => {
    h = await harness();
    await expect(createNexus({ dataDir: h.dir, modules: {} })).rejects.toThrow(/Another NEXUS kernel \(pid \d+\) is already running/);
  });
  it('the handler table answers kernel methods through dispatch (input validated)', async () => {
    h = await harness();
    const bad = await dispatch(h.nexus.handlers, 'runsCreate', { mode: 'sometimes' }, { door: 'internal' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const created = await dispatch(h.nexus.handlers, 'runsCreate', { mode: 'ask' }, { door: 'internal' });
    expect(created).toMatchObject({ ok: true, value: { agent: null, mode: 'ask', status: 'running' } });
    const badRules = await dispatch(
      h.nexus.handlers,
      'runsCreate',
      { mode: 'ask', rules: [{ tool: 'x', verdict: 'allow', color: 'red' }] },
      { door: 'internal' },
    );
    expect(badRules).toMatchObject({ ok: false, error: { code: 'invalid_rules' } });
    const missing = await dispatch(h.nexus.handlers, 'runsShow', { id: 'run_nope' }, { door: 'internal' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
  it('rowsWait returns the row as it is when its timeout passes, and the terminal row otherwise', async () => {
    h = await harness();
    probe(h.nexus);
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const parked = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const waited = await dispatch(h.nexus.handlers, 'rowsWait', { id: parked.id, timeout_ms: 30 }, { door: 'internal' });
    expect(waited).toMatchObject({ ok: true, value: { id: parked.id, state: 'needs_approval' } });
    const granted = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'author' });
    const done = await dispatch(h.nexus.handlers, 'rowsWait', { id: granted.id, timeout_ms: 5000 }, { door: 'internal' });
    expect(done).toMatchObject({ ok: true, value: { id: granted.id, state: 'succeeded', granted_by: 'origin' } });
  });
  it('close interrupts running tools (never left running) and keeps parks', async () => {
    h = await harness();
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask', rules: [{ tool: 'bash', verdict: 'allow' }] });
    const sleeping = h.nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command: 'sleep 30' }, origin: 'model' });
    const parked = h.nexus.kernel.submitRow(run.id, { tool: 'write', input: { path: 'a', content: '' }, origin: 'model' });
    const dir = h.dir;
    const clock = h.clock;
    await h.nexus.close();
    // The second harness is on the first one's dir: h's cleanup removes it after the test.
    const h2 = await harness({ dir, clock });
    try {
      expect(h2.nexus.kernel.getRow(sleeping.id)).toMatchObject({ state: 'failed', error: { code: 'interrupted' } });
      expect(h2.nexus.kernel.getRow(parked.id)!.state).toBe('needs_approval');
      expect(h2.nexus.recovery.parked).toEqual([parked.id]);
    } finally {
      await h2.cleanup();
    }
  });
  it('inbox answers are routed to the card kind that registered them; unknown actions are refused', async () => {
    h = await harness();
    const seen: string[] = [];
    h.nexus.kernel.inbox.register('attention', {
      retry: (item) => {
        seen.push(`retry ${item.id}`);
        h!.nexus.kernel.inbox.resolve(item.id, 'retried');
        return { state: 'retrying' };
      },
    });
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
    h.nexus.kernel.inbox.add({
      id: 'att_1',
      kind: 'attention',
      run_id: run.id,
      agent: null,
      tool: 'bash',
      target: 'hook',
      data: { message: 'the stop hook failed' },
    });
    const listed = await dispatch(h.nexus.handlers, 'inboxList', {}, { door: 'internal' });
    expect(listed).toMatchObject({ ok: true, value: [{ id: 'att_1', kind: 'attention', message: 'the stop hook failed' }] });
    expect(await dispatch(h.nexus.handlers, 'inboxApprove', { id: 'att_1' }, { door: 'internal' })).toMatchObject({
      ok: false,
      error: { code: 'not_supported' },
    });
    expect(await dispatch(h.nexus.handlers, 'inboxRetry', { id: 'att_1' }, { door: 'internal' })).toEqual({
      ok: true,
      value: { id: 'att_1', state: 'retrying' },
    });
    expect(seen).toEqual(['retry att_1']);
    expect(await dispatch(h.nexus.handlers, 'inboxRetry', { id: 'att_1' }, { door: 'internal' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await dispatch(h.nexus.handlers, 'inboxDeny', { id: 'nope' }, { door: 'internal' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
