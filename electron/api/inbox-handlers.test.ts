// The inbox at scale: the kernel pushes the changed card (added whole, closed by id), the list pages by cursor
// and filters, bulk answers report each card, and a card says what the agent said before its call.
// Real kernel on a fresh SQLite (scenario harness), a scripted model over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { queue, scenario, type Scenario } from '../../test/support/scenarios.js';
import type { NexusEvent } from '../../shared/api/index.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

type Handler = (input: unknown, ctx: { door: 'internal' }) => unknown;
const h = (name: string, input: unknown = {}) => (s!.nexus.handlers as unknown as Record<string, Handler>)[name](input, { door: 'internal' });

async function parkedRun(n: number) {
  const run = (await h('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] })) as { id: string };
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(((await h('runsAppend', { run_id: run.id, tool: 'bash', input: { command: `echo ${i}` } })) as { id: string }).id);
  return { run, ids };
}

describe('inbox_changed carries the change, not a prompt to refetch', () => {
  it('a parked call adds its card whole; approve, deny and a stopped run close cards by id with how', async () => {
    s = await scenario({});
    const events: NexusEvent[] = [];
    s.nexus.onEvent((e) => events.push(e));
    const { run, ids } = await parkedRun(3);
    const inbox = () => events.filter((e): e is Extract<NexusEvent, { type: 'inbox_changed' }> => e.type === 'inbox_changed');
    expect(inbox().map((e) => [e.pending, e.added?.map((c) => c.id), e.removed])).toEqual([
      [1, [ids[0]], undefined],
      [2, [ids[1]], undefined],
      [3, [ids[2]], undefined],
    ]);
    expect(inbox()[0].added![0]).toMatchObject({ id: ids[0], kind: 'autonomy', tool: 'bash', target: 'echo 0', run_id: run.id });
    expect(inbox()[0].added![0]).not.toHaveProperty('data');
    events.length = 0;
    await h('inboxApprove', { id: ids[0] });
    await h('inboxDeny', { id: ids[1] });
    await h('runsStop', { id: run.id });
    expect(inbox().map((e) => [e.pending, e.added, e.removed])).toEqual([
      [2, undefined, [{ id: ids[0], status: 'approved' }]],
      [1, undefined, [{ id: ids[1], status: 'denied' }]],
      [0, undefined, [{ id: ids[2], status: 'canceled' }]],
    ]);
    // One approval's inbox event is small whatever the queue holds.
    expect(JSON.stringify(inbox()[0]).length).toBeLessThan(200);
  });
});

describe('inboxList pages and filters; a call without page or filter lists everything', () => {
  it('limit + cursor walk the queue in order with no gaps or repeats, across closes', async () => {
    s = await scenario({});
    const { ids } = await parkedRun(7);
    const all = (await h('inboxList')) as { id: string }[];
    expect(all.map((c) => c.id)).toEqual(ids);
    const p1 = (await h('inboxList', { limit: 3 })) as { id: string }[];
    expect(p1.map((c) => c.id)).toEqual(ids.slice(0, 3));
    await h('inboxApprove', { id: ids[2] }); // the cursor card leaves the queue: the next page still starts after it
    const p2 = (await h('inboxList', { limit: 3, cursor: ids[2] })) as { id: string }[];
    expect(p2.map((c) => c.id)).toEqual(ids.slice(3, 6));
    expect(((await h('inboxList', { limit: 3, cursor: ids[5] })) as { id: string }[]).map((c) => c.id)).toEqual([ids[6]]);
    await expect((async () => h('inboxList', { limit: 3, cursor: 'no-such-card' }))()).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/not a card's id/),
    });
  });

  it('filters by text (literally: % and _ are not wildcards), kind and run; summary counts; ids select all matching', async () => {
    s = await scenario({});
    const { run, ids } = await parkedRun(4);
    await h('runsAppend', { run_id: run.id, tool: 'bash', input: { command: 'echo 100%' } });
    expect(((await h('inboxList', { text: '100%' })) as unknown[]).length).toBe(1);
    expect(((await h('inboxList', { text: '%' })) as unknown[]).length).toBe(1);
    expect(((await h('inboxList', { text: 'ECHO', limit: 2 })) as unknown[]).length).toBe(2);
    expect(((await h('inboxList', { kind: 'question' })) as unknown[]).length).toBe(0);
    expect(await h('inboxSummary', {})).toEqual({
      total: 5,
      by_agent: [{ key: null, count: 5 }],
      by_run: [{ key: run.id, agent: null, count: 5 }],
      by_chain: [],
    });
    expect(((await h('inboxSummary', { text: 'echo 1' })) as { total: number }).total).toBe(2);
    expect(await h('inboxIds', { run_id: run.id, text: 'echo 1' })).toEqual([ids[1], expect.any(String)]);
  });
});

describe('inboxBulk answers many cards, each as if alone', () => {
  it('approves a selection, reports the ones that could not be answered, and keeps going', async () => {
    s = await scenario({});
    const { ids } = await parkedRun(3);
    await h('inboxDeny', { id: ids[1] });
    const r = (await h('inboxBulk', { ids, action: 'approve' })) as { done: string[]; failed: { id: string; message: string }[] };
    expect(r.done).toEqual([ids[0], ids[2]]);
    expect(r.failed).toEqual([{ id: ids[1], message: expect.stringMatching(/no longer pending/) }]);
    expect(await h('inboxList')).toEqual([]);
  });
});

describe('inboxContext: why a card exists', () => {
  it('says what the agent said in the round that made the call, and which run it is', async () => {
    s = await scenario({
      builder: {
        mode: 'ask',
        script: queue([
          { text: 'The build folder is stale; I will clear it first.', toolCalls: [{ name: 'bash', input: { command: 'rm -rf build' } }] },
          { text: 'done' },
        ]),
      },
    });
    const run = s.start('builder');
    const card = await s.until('the card', () => s!.nexus.kernel.inbox.pending()[0]);
    const ctx = (await h('inboxContext', { id: card.id })) as { said: string; round: number; run: { id: string; agent: string } };
    expect(ctx.said).toBe('The build folder is stale; I will clear it first.');
    expect(ctx.round).toBe(1);
    expect(ctx.run).toMatchObject({ id: run.id, agent: 'builder' });
    await expect(async () => h('inboxContext', { id: 'nope' })).rejects.toThrow(/No inbox card/);
  });
});
