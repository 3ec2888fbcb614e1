// runsList's filters (issue 23 item 9): one agent, one state, one connected client (`none`: runs no client
// made), alone or together, and paged with a cursor inside the filtered list.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import { dispatch } from './dispatch.js';
import { kernelMethods } from '../../shared/api/kernel.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
  probe(h.nexus);
});
afterEach(async () => h.cleanup());

const list = async (input: Record<string, unknown>) => {
  const r = await dispatch(h.nexus.handlers, 'runsList', { limit: 100, ...input }, { door: 'socket' });
  if (!r.ok) throw new Error(`runsList failed: ${r.error.message}`);
  return kernelMethods.runsList.output.parse(r.value).map((run) => run.id);
};

describe('runsList filters', () => {
  it('lists one agent, one state, one client, or the runs of no client, alone and together', async () => {
    const k = h.nexus.kernel;
    const mine = k.createRun({ agent: null, mode: 'ask' });
    const claude = k.createRun({ agent: null, mode: 'ask', created_by: 'client:claude-code:s1' });
    const codex = k.createRun({ agent: null, mode: 'ask', created_by: 'client:codex:s2' });
    const tricky = k.createRun({ agent: null, mode: 'ask', created_by: 'client:claude-codex:s3' }); // a prefix of no real client
    k.stopRun(mine.id);
    expect(await list({ client: 'claude-code' })).toEqual([claude.id]);
    expect(await list({ client: 'codex' })).toEqual([codex.id]);
    expect(await list({ client: 'none' })).toEqual([mine.id]);
    expect(await list({})).toContain(tricky.id);
    expect(await list({ status: 'canceled' })).toEqual([mine.id]);
    expect(await list({ status: 'canceled', client: 'claude-code' })).toEqual([]);
    expect((await list({})).length).toBe(4);
    const bad = await dispatch(h.nexus.handlers, 'runsList', { client: 'copilot' }, { door: 'socket' });
    expect(bad.ok).toBe(false);
  });

  it('pages inside the filtered list: the cursor is the last run of the previous filtered page', async () => {
    const k = h.nexus.kernel;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(k.createRun({ agent: null, mode: 'ask', created_by: 'client:codex:s' }).id);
      k.createRun({ agent: null, mode: 'ask' });
    }
    const first = await list({ client: 'codex', limit: 2 });
    expect(first).toEqual([ids[4], ids[3]]);
    expect(await list({ client: 'codex', limit: 2, cursor: first[1] })).toEqual([ids[2], ids[1]]);
  });
});
