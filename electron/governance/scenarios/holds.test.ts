// Per-hop approval through the real kernel with scripted models over real HTTP: a held hop, the card, the
// person's answer (a continuation in the held agent's run), the identical retry finding it, single use,
// refusal, a changed input, and the approval stage still applying after the hold.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../../test/support/scripted-model.js';
import { bash, delegate, last, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import type { ChainView } from '../../../shared/types.js';
import type { InboxItem } from '../../../shared/api/inbox.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const codeOf = (r: ScriptedRequest) => structuredOf(last(r))?.code;
const cards = async (sc: Scenario, kind = 'orchestration') => (await sc.call<InboxItem[]>('inboxList')).filter((c) => c.kind === kind);

describe('per-hop approval (on by default)', () => {
  it('held → approved → the identical retry proceeds; consumed; still waiting keeps the request id; refused → hop_refused; a changed input is a new hold', async () => {
    const mid = [
      () => ({ toolCalls: [bash('echo one')] }), // 0: held (R1)
      () => ({ text: 'waiting for a person' }), // 1: reads hop_held; the turn ends, the task stays open
      () => ({ toolCalls: [bash('echo one')] }), // 2: told APPROVED: the identical retry proceeds
      () => ({ toolCalls: [bash('echo one')] }), // 3: reads "one"; the same call again is a NEW hold (R2)
      () => ({ toolCalls: [bash('echo one')] }), // 4: retries while waiting: hop_held, the same R2
      () => ({ text: 'waiting again' }), // 5
      () => ({ toolCalls: [bash('echo one')] }), // 6: told REFUSED, retries anyway: hop_refused
      () => ({ toolCalls: [bash('echo changed')] }), // 7: a changed input: a new hold (R3)
      () => ({ text: 'waiting a third time' }), // 8
      () => ({ toolCalls: [bash('echo changed')] }), // 9: approved: proceeds
      () => ({ text: 'mid finished' }), // 10: final answer; the check passes
    ];
    s = await scenario({
      lead: (req, i) => (i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${last(req)}` }),
      mid: (_req, i) => mid[i](),
    });
    await s.open(['lead'], true);
    const lead = s.start('lead');

    const [c1] = await waitCards(s, 1);
    expect(c1).toMatchObject({ kind: 'orchestration', agent: 'mid', tool: 'bash', target: 'echo one', hop: 2, chain_id: expect.stringMatching(/^chain_/) });
    expect(c1.id).toMatch(/^[0-9a-f]{32}$/);
    await s.until('mid to end its turn (waiting: its task is open)', () => s!.waits('mid') >= 1);
    expect(codeOf(s.requests('mid')[1])).toBe('hop_held');
    expect(structuredOf(last(s.requests('mid')[1]))?.request_id).toBe(c1.id);
    // The delegator's row stays running while the recipient works (and waits).
    expect(s.nexus.kernel.getRun(lead.id)?.status).toBe('running');
    expect(s.rowsOf('lead').find((r) => r.tool === 'delegate_task')?.state).toBe('running');
    let [chain] = await s.call<ChainView[]>('chainsList');
    expect(chain.hops[1]).toMatchObject({ hop: 2, verdict: 'awaiting_approval', request_id: c1.id });

    await s.call('inboxApprove', { id: c1.id });
    // Switched the moment it was answered, before the agent retries.
    [chain] = await s.call<ChainView[]>('chainsList');
    expect(chain.hops[1].verdict).toBe('approved');

    const [c2] = await waitCards(s, 1);
    expect(s.requests('mid')[2].userText).toMatch(/APPROVED/);
    expect(s.requests('mid')[2].userText).toContain(c1.id);
    expect(last(s.requests('mid')[3]).split('\n')[0]).toBe('one');
    // The retry that ran says who let the hop through: the person who approved the hold, then the stage's grant.
    const ran = s.rowsOf('mid').find((r) => r.tool === 'bash' && r.state === 'succeeded')!;
    expect(ran).toMatchObject({ granted_by: 'mode', approved_by: expect.stringMatching(/^person:/) });
    expect(c2.id).not.toBe(c1.id);
    expect(c2.hop).toBe(3);
    await s.until('mid to end its second turn', () => s!.requests('mid').length >= 6 && s!.waits('mid') >= 2);
    expect(structuredOf(last(s.requests('mid')[5]))).toMatchObject({ code: 'hop_held', request_id: c2.id });
    expect(await cards(s)).toHaveLength(1); // no second card for the retry

    await s.call('inboxDeny', { id: c2.id, reason: 'not now' });
    const [c3] = await waitCards(s, 1);
    expect(s.requests('mid')[6].userText).toMatch(/REFUSED/);
    expect(structuredOf(last(s.requests('mid')[7]))).toMatchObject({ code: 'hop_refused', request_id: c2.id });
    expect(c3).toMatchObject({ target: 'echo changed', hop: 4 });
    await s.until('mid to end its third turn', () => s!.requests('mid').length >= 9 && s!.waits('mid') >= 3);
    await s.call('inboxApprove', { id: c3.id });

    const done = await s.ended(lead.id);
    expect(done.status).toBe('succeeded');
    expect(done.final_answer).toMatch(/^lead read: mid finished/);
    const performed = s
      .rowsOf('mid')
      .filter((r) => r.origin === 'model' && r.state === 'succeeded')
      .map((r) => (r.input as { command: string }).command);
    expect(performed).toEqual(['echo one', 'echo changed']);
    [chain] = await s.call<ChainView[]>('chainsList');
    expect(chain.hops.map((h) => [h.hop, h.agent, h.action, h.target, h.verdict])).toEqual([
      [1, 'lead', 'delegate_task', 'mid', 'allowed'],
      [2, 'mid', 'bash', 'echo one', 'approved'],
      [3, 'mid', 'bash', 'echo one', 'refused'],
      [4, 'mid', 'bash', 'echo changed', 'approved'],
    ]);
  });

  it("after the hold the hop still crosses its run's approval stage (an autonomy card); trust for the session never covers a hold", async () => {
    s = await scenario({
      lead: (req, i) => (i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${last(req)}` }),
      mid: {
        mode: 'ask',
        script: (_req, i) =>
          [{ toolCalls: [bash('echo a')] }, { text: 'waiting' }, { toolCalls: [bash('echo a')] }, { toolCalls: [bash('echo b')] }, { text: 'waiting' }][i] ?? {
            text: 'done',
          },
      },
    });
    await s.open(['lead'], true);
    s.start('lead');
    const [hold] = await waitCards(s, 1);
    await s.until('mid waiting', () => s!.waits('mid') >= 1);
    await s.call('inboxApprove', { id: hold.id });
    // The retry passed the gate and the hold, then parked at mid's own autonomy stage (mode ask).
    const autonomy = await waitCards(s, 1, 'autonomy');
    expect(autonomy[0]).toMatchObject({ kind: 'autonomy', agent: 'mid', tool: 'bash', target: 'echo a' });
    await s.call('inboxApprove', { id: autonomy[0].id, trust_session: true });
    // mid is now trusted for its own autonomy prompts, but its next hop is still held by orchestration.
    const [hold2] = await waitCards(s, 1);
    expect(hold2).toMatchObject({ kind: 'orchestration', target: 'echo b' });
  });
});

describe('what an orchestration card shows', () => {
  it('a held write carries its input, workspace and diff, like an autonomy card (not only the tool and target)', async () => {
    s = await scenario({
      lead: (req, i) => (i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${last(req)}` }),
      mid: (_req, i) => (i === 0 ? { toolCalls: [{ name: 'write', input: { path: 'hello.md', content: 'hi there\n' } }] } : { text: 'waiting' }),
    });
    await s.open(['lead'], true);
    s.start('lead');
    const [hold] = await waitCards(s, 1);
    expect(hold).toMatchObject({ kind: 'orchestration', agent: 'mid', tool: 'write', target: 'hello.md', hop: 2 });
    const effect = hold.effect as { input?: unknown; workspace?: string; diff?: string; mode?: string } | undefined;
    expect(effect?.input).toEqual({ path: 'hello.md', content: 'hi there\n' });
    expect(effect?.workspace).toBe(s.runsOf('mid')[0]!.workspace);
    expect(effect?.diff).toMatch(/\+hi there/);
    // Orchestration asks, not the agent's autonomy mode: no mode on this card.
    expect(effect?.mode).toBeUndefined();
    await s.call('inboxDeny', { id: hold.id });
  });
});

async function waitCards(sc: Scenario, n: number, kind = 'orchestration'): Promise<InboxItem[]> {
  const end = Date.now() + 15_000;
  for (;;) {
    const list = await cards(sc, kind);
    if (list.length >= n) return list;
    if (Date.now() > end) throw new Error(`timed out waiting for ${n} ${kind} card(s)`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
