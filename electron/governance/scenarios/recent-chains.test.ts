// Settings ▸ Agents ▸ Orchestration ▸ Recent chains, exactly as seed 003 describes it, driven by real chains
// (scripted models over real HTTP, the real kernel).
import { afterEach, describe, expect, it } from 'vitest';
import { bash, delegate, queue, scenario, type Scenario } from '../../../test/support/scenarios.js';
import type { ChainView } from '../../../shared/types.js';
import type { InboxItem } from '../../../shared/api/inbox.js';
import type { NexusEvent } from '../../../shared/api/index.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const chains = () => s!.call<ChainView[]>('chainsList');
const view = (c: ChainView) => ({ agents: c.agents, hops: c.hops.map((h) => [h.hop, h.agent, h.action, h.target, h.verdict, h.code ?? null]) });

describe('Recent chains (seed 003 "Where to see what a chain did")', () => {
  it('lists the chain with its agents in the order they acted, its hops, and each verdict; a waiting hop switches the moment it is answered', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([
        { toolCalls: [bash('echo hi')] },
        { text: 'waiting' },
        { toolCalls: [bash('echo hi')] },
        { toolCalls: [delegate('leaf')] },
        { text: 'mid reports the depth cap' },
      ]),
      leaf: queue([{ text: 'leaf never runs' }]),
    });
    const events: NexusEvent[] = [];
    s.nexus.onEvent((e) => events.push(e));
    await s.open(['lead', 'mid'], true);
    await s.call('settingsSet', { key: 'orchestration.maxDepth', value: 2 });
    const run = s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    await s.until('mid to wait', () => s!.waits('mid') >= 1);
    // "A hop that is waiting on you appears there while it waits"
    let [c] = await chains();
    expect(view(c)).toEqual({
      agents: ['lead', 'mid'],
      hops: [
        [1, 'lead', 'delegate_task', 'mid', 'allowed', null],
        [2, 'mid', 'bash', 'echo hi', 'awaiting_approval', null],
      ],
    });
    const asked = s.requests('mid').length;
    await s.call<InboxItem>('inboxApprove', { id: card.id });
    // "...and switches to your answer the moment you give it rather than when the agent next gets around to retrying"
    [c] = await chains();
    expect(c.hops[1].verdict).toBe('approved');
    expect(s.requests('mid').length).toBe(asked);
    expect(events.some((e) => e.type === 'chains_changed')).toBe(true);

    await s.ended(run.id);
    [c] = await chains();
    // "Refusals are listed exactly like admissions ... the denial row is the one that says the chain hit its depth cap"
    expect(view(c)).toEqual({
      agents: ['lead', 'mid'],
      hops: [
        [1, 'lead', 'delegate_task', 'mid', 'allowed', null],
        [2, 'mid', 'bash', 'echo hi', 'approved', null],
        [3, 'mid', 'delegate_task', 'leaf', 'denied', 'chain_depth_exceeded'],
      ],
    });
  });

  it('only chains with more than one recorded hop, most recently active first; it stays visible with orchestration off; Clear forgets and stops nothing', async () => {
    s = await scenario({
      lead: queue([
        { toolCalls: [delegate('mid')] },
        { text: 'lead 1' },
        { toolCalls: [delegate('leaf')] },
        { text: 'lead 2' },
        { toolCalls: [delegate('mid')] },
        { text: 'lead 3' },
      ]),
      mid: queue([{ toolCalls: [bash('echo one')] }, { text: 'mid 1' }, { toolCalls: [bash('echo three')] }, { text: 'mid 3' }]),
      leaf: queue([{ text: 'leaf alone' }]),
    });
    await s.open(['lead'], false);
    await s.ended(s.start('lead').id);
    // "one agent triggering another with nothing following, has not composed yet"
    await s.ended(s.start('lead').id);
    let list = await chains();
    expect(list.map((c) => c.agents)).toEqual([['lead', 'mid']]);
    await s.ended(s.start('lead').id);
    list = await chains();
    expect(list).toHaveLength(2);
    expect(list[0].hops[1].target).toBe('echo three'); // most recently active first
    expect(list[1].hops[1].target).toBe('echo one');

    // "The list stays visible whether or not Cross-Agent Orchestration is currently switched on"
    await s.call('settingsSet', { key: 'orchestration.enabled', value: false });
    expect(await chains()).toHaveLength(2);

    // "Clearing it forgets the runs shown; it stops nothing and changes no limit."
    const before = await s.call<Record<string, unknown>>('settingsGet');
    expect(await s.call('chainsClear')).toEqual({ cleared: 2 });
    expect(await chains()).toEqual([]);
    expect(await s.call('settingsGet')).toEqual(before);
  });

  it('Clear while a hop waits stops nothing: the hold is still pending and still answerable', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'waiting' }, { toolCalls: [bash('echo hi')] }, { text: 'mid done' }]),
    });
    await s.open(['lead'], true);
    const run = s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    await s.call('chainsClear');
    expect(s.nexus.kernel.getRun(run.id)?.status).toBe('running');
    expect(s.nexus.kernel.inbox.pending().map((c) => c.id)).toEqual([card.id]);
    await s.until('mid to wait', () => s!.waits('mid') >= 1);
    await s.call('inboxApprove', { id: card.id });
    expect((await s.ended(run.id)).status).toBe('succeeded');
  });

  it('"covers the current run of the app": a restart starts with an empty list', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'mid done' }]),
    });
    await s.open(['lead'], false);
    await s.ended(s.start('lead').id);
    expect(await chains()).toHaveLength(1);
    const again = await s.reopen();
    try {
      expect(await again.call('chainsList')).toEqual([]);
    } finally {
      await again.close();
    }
  });
});

describe('Recent chains under a burst (real chains, one model reply fanning out)', () => {
  it('52 parallel message_agent calls, each recipient making one bash call: the 50 most recent chains are listed, none lost to its own later hop', async () => {
    const N = 52;
    s = await scenario({
      lead: queue([
        { toolCalls: Array.from({ length: N }, (_, i) => ({ name: 'message_agent', input: { agent: 'leaf', message: `job ${i}` } })) },
        { text: 'lead done' },
      ]),
      leaf: (req, i) => (req.toolResults.length ? { text: `leaf answered ${i}` } : { toolCalls: [bash('echo leaf')] }),
    });
    await s.open(['lead'], false);
    const run = s.start('lead');
    expect((await s.ended(run.id, 60_000)).status).toBe('succeeded');
    expect(s.runsOf('leaf')).toHaveLength(N);
    const list = await chains();
    expect(list).toHaveLength(50);
    for (const c of list)
      expect(view(c)).toEqual({
        agents: ['lead', 'leaf'],
        hops: [
          [1, 'lead', 'message_agent', 'leaf', 'allowed', null],
          [2, 'leaf', 'bash', 'echo leaf', 'allowed', null],
        ],
      });
  }, 90_000);
});
