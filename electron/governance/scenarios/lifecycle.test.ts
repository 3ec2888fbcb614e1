// Settings re-read at every hop, Stop all in the middle of a chain, and depth/breadth limits that free up
// once the run in progress (the chain) finishes. Scripted models over real HTTP, the real kernel.
import { afterEach, describe, expect, it } from 'vitest';
import { bash, delegate, last, queue, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import type { ChainView } from '../../../shared/types.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const message = (agent: string) => ({ name: 'message_agent', input: { agent, message: 'Please help.' } });

describe('settings are re-read at enforcement time', () => {
  it('flipping orchestration.enabled off between two hops, with no restart, denies the very next hop', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: async (req, i) => {
        if (i === 0) return { toolCalls: [bash('echo first')] };
        if (i === 1) {
          // The person switches orchestration off while the chain is in flight.
          await s!.call('settingsSet', { key: 'orchestration.enabled', value: false });
          return { toolCalls: [bash('echo second')] };
        }
        return { text: `mid reports: ${last(req)}` };
      },
    });
    await s.open(['lead']);
    const run = s.start('lead');
    await s.ended(run.id);
    const reqs = s.requests('mid');
    expect(last(reqs[1]).split('\n')[0]).toBe('first');
    expect(structuredOf(last(reqs[2]))).toMatchObject({ code: 'orchestration_disabled', hop: 3 });
    const performed = s
      .rowsOf('mid')
      .filter((r) => r.origin === 'model')
      .map((r) => [(r.input as { command: string }).command, r.state]);
    expect(performed).toEqual([
      ['echo first', 'succeeded'],
      ['echo second', 'failed'],
    ]);
  });
});

describe('Stop all', () => {
  it('mid-chain: every run in flight is force-stopped (rows canceled, nothing asks), and governed hops are denied until Resume', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      // Chain 1: mid hands on to leaf. Chain 2 (after Stop all): mid tries a command, then reports.
      mid: (req, i) =>
        i === 0 ? { toolCalls: [delegate('leaf')] } : req.toolResults.length ? { text: `mid reports: ${last(req)}` } : { toolCalls: [bash('echo again')] },
      leaf: queue([{ toolCalls: [bash('sleep 30')] }, { text: 'leaf done' }]),
      other: queue([{ toolCalls: [delegate('mid')] }, { text: 'other done' }]),
    });
    await s.open(['lead', 'mid']);
    const lead = s.start('lead');
    const sleeping = await s.until('leaf sleeping', () => s!.rowsOf('leaf').find((r) => r.tool === 'bash' && r.state === 'running'));
    const before = { lead: s.requests('lead').length, mid: s.requests('mid').length, leaf: s.requests('leaf').length };
    const out = await s.call<{ stopped_runs: number }>('stopAll');
    expect(out.stopped_runs).toBe(3);
    for (const a of ['lead', 'mid', 'leaf']) expect(s.runsOf(a).map((r) => r.status)).toEqual(['canceled']);
    // The run says who stopped it and what lifts it.
    // (a delegate's run stopped first by its delegator's stop reads that instead)
    expect(['lead', 'mid', 'leaf'].map((a) => s!.runsOf(a)[0]!.error)).toContain(
      'Force-stopped by Stop all (a person pressed it); Resume lifts it for new work.',
    );
    expect((await s.nexus.kernel.waitRow(sleeping.id)).state).toBe('canceled');
    const delegations = [...s.rowsOf('lead'), ...s.rowsOf('mid')].filter((r) => r.tool === 'delegate_task');
    expect(delegations.map((r) => r.state)).toEqual(['canceled', 'canceled']);
    expect(await s.call('inboxList')).toEqual([]);
    expect(await s.call('status')).toMatchObject({ stop_all: true, runs_in_flight: 0 });
    await new Promise((r) => setTimeout(r, 100));
    // Nothing more was asked of any model.
    expect({ lead: s.requests('lead').length, mid: s.requests('mid').length, leaf: s.requests('leaf').length }).toEqual(before);
    expect(s.nexus.kernel.getRun(lead.id)?.status).toBe('canceled');

    // Until Resume, a new chain's governed hops are denied orchestration_stopped (hop 1 is not governed).
    const other = s.start('other');
    await s.ended(other.id);
    const midRun = s.runsOf('mid')[1];
    await s.ended(midRun.id);
    expect(structuredOf(last(s.requests('mid').at(-1)!))).toMatchObject({ code: 'orchestration_stopped' });
    const settings = await s.call<Record<string, unknown>>('resume');
    expect(settings['orchestration.stopAll']).toBe(false);
  });
});

describe('depth and breadth free up once the run in progress finishes', () => {
  it('breadth: denied in a chain that already touched three agents; the same hand-off is admitted in the next chain', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead 1 done' }, { toolCalls: [delegate('mid')] }, { text: 'lead 2 done' }]),
      mid: queue([
        { toolCalls: [delegate('leaf')] },
        { toolCalls: [message('extra')] },
        { text: 'mid 1 reports the limit' },
        { toolCalls: [message('extra')] },
        { text: 'mid 2 done' },
      ]),
      leaf: queue([{ text: 'leaf done' }]),
      extra: queue([{ text: 'extra done' }]),
    });
    await s.open(['lead', 'mid']);
    await s.call('settingsSet', { key: 'orchestration.maxAgents', value: 3 });
    const first = s.start('lead');
    await s.ended(first.id);
    const denial = structuredOf(last(s.requests('mid')[2]));
    expect(denial).toMatchObject({ code: 'chain_agents_exceeded', retryable: true });
    expect(last(s.requests('mid')[2])).toMatch(/4 distinct agents and the limit is 3/);
    expect(s.runsOf('extra')).toHaveLength(0);
    // The run in progress finished; a new chain counts afresh.
    const second = s.start('lead');
    await s.ended(second.id);
    expect(last(s.requests('mid')[4]).split('\n')[0]).toBe('extra done');
    expect(s.runsOf('extra')).toHaveLength(1);
  });

  it('depth: leaf at depth 3 cannot hand on (depth 4 > 3); once that run is over, a chain begun one level lower admits it', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [delegate('leaf')] }, { text: 'mid 1 done' }, { toolCalls: [delegate('leaf')] }, { text: 'mid 2 done' }]),
      leaf: queue([{ toolCalls: [delegate('extra')] }, { text: 'leaf reports the depth limit' }, { toolCalls: [delegate('extra')] }, { text: 'leaf 2 done' }]),
      extra: queue([{ text: 'extra done' }]),
    });
    await s.open(['lead', 'mid', 'leaf']);
    const first = s.start('lead');
    await s.ended(first.id);
    expect(structuredOf(last(s.requests('leaf')[1]))).toMatchObject({ code: 'chain_depth_exceeded', retryable: true, hop: 3 });
    expect(s.runsOf('extra')).toHaveLength(0);
    const second = s.start('mid');
    await s.ended(second.id);
    expect(last(s.requests('leaf')[3]).split('\n')[0]).toBe('extra done');
    const chains = await s.call<ChainView[]>('chainsList');
    // extra answered in words only: it acted, so it is one of the chain's agents (seed 003).
    expect(chains.map((c) => c.agents)).toEqual([
      ['mid', 'leaf', 'extra'],
      ['lead', 'mid', 'leaf'],
    ]);
  });
});
