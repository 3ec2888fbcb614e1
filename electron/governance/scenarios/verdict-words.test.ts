// Seed 003's last clauses on Recent chains, driven by real chains (scripted models over real HTTP, the real
// kernel): only the five verdict words, the cause of a refusal nobody gave in `code`, and every agent that
// acted, including one that answered in words alone.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../../test/support/scripted-model.js';
import { bash, delegate, last, queue, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import { ManualClock } from '../../kernel/clock.js';
import { HOP_VERDICTS, PARK_DURATION_MS, type ChainView } from '../../../shared/types.js';
import { Chain } from '../../../shared/api/orchestration.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const chains = async () => Chain.array().parse(await s!.call<ChainView[]>('chainsList'));
const holdCard = () => s!.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));

describe('Recent chains speaks only the five verdict words (seed 003)', () => {
  it('a hop held when its run is stopped reads refused with code run_stopped, never canceled', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'waiting' }]),
    });
    await s.open(['lead'], true);
    const lead = s.start('lead');
    await holdCard();
    await s.call('runsStop', { id: lead.id });
    await s.until('the hold closed', () => s!.nexus.kernel.inbox.pending().length === 0);
    const [c] = await chains();
    expect(c!.hops[1]).toMatchObject({ hop: 2, agent: 'mid', verdict: 'refused', code: 'run_stopped' });
    for (const h of c!.hops) expect(HOP_VERDICTS).toContain(h.verdict);
  });

  it('an expired hold reads refused with code approval_expired, unlike a person refusal, and its retry tells the model it expired', async () => {
    const clock = new ManualClock(Date.now());
    let retried = false;
    const mid = (req: ScriptedRequest) => {
      if (/within 24 hours/.test(req.userText) && !retried) {
        retried = true;
        return { toolCalls: [bash('echo late')] }; // the identical call again, after expiry
      }
      return req.toolResults.length ? { text: 'mid reports' } : { toolCalls: [bash('echo late')] };
    };
    s = await scenario({ lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]), mid }, { clock });
    // An entitlement that outlives the 24 h the clock jumps (per-hop approval is on by default).
    await s.call('entitlementsImport', { token: await s.account.token({ exp: Math.floor(Date.now() / 1000) + 30 * 86400 }) });
    await s.call('settingsSet', { key: 'orchestration.enabled', value: true });
    await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
    s.start('lead');
    await holdCard();
    await s.until('mid to wait', () => s!.waits('mid') >= 1);
    clock.advance(PARK_DURATION_MS);
    await s.until('the retry', () => retried && s!.requests('mid').some((r) => /Expired:/.test(last(r))));
    const read = s.requests('mid').find((r) => /Expired:/.test(last(r)))!;
    expect(last(read)).not.toMatch(/a person refused/i);
    expect(structuredOf(last(read))).toMatchObject({ code: 'hop_refused', reason: 'approval_expired' });
    const [c] = await chains();
    expect(c!.hops[1]).toMatchObject({ hop: 2, verdict: 'refused', code: 'approval_expired' });
  });

  it('a person refusal is refused with no code', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'waiting' }, { text: 'mid reports the refusal' }]),
    });
    await s.open(['lead'], true);
    const card = await (async () => (s!.start('lead'), holdCard()))();
    await s.call('inboxDeny', { id: card.id, reason: 'not now' });
    const [c] = await chains();
    expect(c!.hops[1]).toMatchObject({ hop: 2, verdict: 'refused' });
    expect(c!.hops[1]!.code).toBeUndefined();
  });
});

describe('"the participating agents in the order they acted" (seed 003)', () => {
  it('A → B → C where C answers with text only lists all three agents', async () => {
    s = await scenario({
      A: queue([{ toolCalls: [delegate('B')] }, { text: 'A done' }]),
      B: queue([{ toolCalls: [delegate('C')] }, { text: 'B done' }]),
      C: queue([{ text: 'C answers in words only' }]),
    });
    await s.open(['A', 'B'], false);
    await s.ended(s.start('A').id);
    const [c] = await chains();
    expect(c!.agents).toEqual(['A', 'B', 'C']);
    expect(c!.hops.map((h) => [h.hop, h.agent, h.action, h.target])).toEqual([
      [1, 'A', 'delegate_task', 'B'],
      [2, 'B', 'delegate_task', 'C'],
    ]);
  });
});
