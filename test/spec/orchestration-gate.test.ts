// Seed 003 / DESIGN §3 sentences that had no test of their own (docs/spec-coverage.md lists them), each
// named after the sentence it makes executable. Real kernel (createNexus on a fresh temp dir, turns and
// governance), scripted models over real HTTP, one per agent.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedReply, ScriptedRequest } from '../support/scripted-model.js';
import { bash, delegate, last, queue, scenario, structuredOf, type Scenario } from '../support/scenarios.js';
import { saveAgent } from '../../electron/agents/profiles.js';
import type { ChainView } from '../../shared/types.js';
import type { InboxItem } from '../../shared/api/inbox.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const cards = async (kind: string) => (await s!.call<InboxItem[]>('inboxList')).filter((c) => c.kind === kind);
const waitCard = (kind: string) => s!.until(`a ${kind} card`, () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === kind));

describe('DESIGN §3 Chain: "That hand-off is hop 1; it is not governed by this layer (the approval stage still applies to it)"', () => {
  it("hop 1 under the delegator's ask mode parks as an AUTONOMY card (a model row), not an orchestration hold; approved, the task runs", async () => {
    s = await scenario({
      lead: { mode: 'ask', script: queue([{ toolCalls: [delegate('mid', 'Say hi.')] }, { text: 'lead done' }]) },
      mid: queue([{ text: 'hi from mid' }]),
    });
    const run = s.start('lead');
    const card = await waitCard('autonomy');
    expect(card).toMatchObject({ kind: 'autonomy', agent: 'lead', tool: 'delegate_task', target: expect.stringContaining('mid') });
    expect(card.hop).toBeUndefined();
    expect(await cards('orchestration')).toEqual([]);
    const row = s.rowsOf('lead').find((r) => r.tool === 'delegate_task')!;
    expect(row).toMatchObject({ origin: 'model', state: 'needs_approval' });
    expect(s.runsOf('mid')).toHaveLength(0); // not handed on before the person answers
    await s.call('inboxApprove', { id: card.id });
    const ended = await s.ended(run.id);
    expect(ended.status).toBe('succeeded');
    expect(last(s.requests('lead')[1]!).split('\n')[0]).toBe('hi from mid');
  });

  it('hop 1 under the delegator\'s rules mode with no rule naming delegate_task is refused by the stage ("no approval rule allows delegate_task")', async () => {
    s = await scenario({
      lead: { mode: 'rules', script: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]) },
      mid: queue([{ text: 'never' }]),
    });
    await s.ended(s.start('lead').id);
    const row = s.rowsOf('lead').find((r) => r.tool === 'delegate_task')!;
    expect(row.state).toBe('failed');
    expect(row.error).toMatchObject({ code: 'approval_denied', detail: 'no approval rule allows delegate_task' });
    expect(s.runsOf('mid')).toHaveLength(0);
  });
});

describe('seed 003 "Per-hop approval is a real pause point, and it is on by default"', () => {
  it('with the entitlement, the switch on and the allowlist set — per-hop approval never touched — hop 2 is held', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo held')] }, { text: 'waiting' }]),
    });
    await s.call('entitlementsImport', { token: await s.account.token() });
    await s.call('settingsSet', { key: 'orchestration.enabled', value: true });
    await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
    s.start('lead');
    const card = await waitCard('orchestration');
    expect(card).toMatchObject({ agent: 'mid', tool: 'bash', target: 'echo held', hop: 2 });
    await s.until('mid to read the hold', () => s!.requests('mid').length >= 2);
    expect(structuredOf(last(s.requests('mid')[1]!))).toMatchObject({ code: 'hop_held', request_id: card.id });
    expect(s.rowsOf('mid').filter((r) => r.origin === 'model' && r.state === 'succeeded')).toEqual([]);
  });
});

describe('DESIGN §3 "The identical retry (same chain, agent, resolved tool and canonical input) finds the answer"', () => {
  it('a retry through the kernel alias (Write, file_path) with its keys in another order is the identical call: it proceeds, once', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: (req: ScriptedRequest, i: number): ScriptedReply => {
        if (i === 0) return { toolCalls: [{ name: 'write', input: { path: 'a.txt', content: 'x' } }] };
        if (/APPROVED/.test(req.userText)) return { toolCalls: [{ name: 'Write', input: { content: 'x', file_path: 'a.txt' } }] };
        return { text: `mid read: ${last(req)}` };
      },
    });
    await s.open(['lead'], true);
    const run = s.start('lead');
    const card = await waitCard('orchestration');
    await s.until('mid waiting', () => s!.waits('mid') >= 1);
    await s.call('inboxApprove', { id: card.id });
    expect((await s.ended(run.id)).status).toBe('succeeded');
    const rows = s.rowsOf('mid').filter((r) => r.origin === 'model');
    expect(rows.map((r) => [r.state, r.error?.code ?? null])).toEqual([
      ['failed', 'hop_held'],
      ['succeeded', null],
    ]);
    expect(s.requests('mid').some((r) => r.messages.some((m) => m.toolCalls?.some((c) => c.name === 'Write')))).toBe(true);
    expect(await cards('orchestration')).toEqual([]); // no second hold for the aliased retry
  });

  it('the same call by the same agent in ANOTHER chain is not the identical call: an approval in one chain grants nothing in the other', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead 1 done' }, { toolCalls: [delegate('mid')] }, { text: 'lead 2 done' }]),
      // mid makes the call at the start of each task, reads the hold as "wait", and does NOT retry when told
      // APPROVED: the approval in chain 1 stays unused while chain 2 makes the same call.
      mid: (req: ScriptedRequest): ScriptedReply =>
        /APPROVED/.test(req.userText) ? { text: 'not retrying' } : req.toolResults.length ? { text: 'waiting' } : { toolCalls: [bash('echo same')] },
    });
    await s.open(['lead'], true);
    s.start('lead');
    const first = await waitCard('orchestration');
    await s.until('mid waiting', () => s!.waits('mid') >= 1);
    await s.call('inboxApprove', { id: first.id });
    s.start('lead');
    const second = await s.until("the second chain's hold", () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration' && c.id !== first.id));
    expect(second.chain_id).not.toBe(first.chain_id);
    expect(second).toMatchObject({ agent: 'mid', target: 'echo same', hop: 2 });
  });
});

describe('seed 003 "Nothing is left open waiting on you, so one unanswered question never stalls other agents\' work"', () => {
  it("while a hold waits: the held agent's turn has ended, and another agent's work — alone, and in a chain — runs to the end", async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo waits')] }, { text: 'waiting for a person' }]),
      solo: queue([{ toolCalls: [bash('echo alone')] }, { text: 'solo done' }]),
      boss: queue([{ toolCalls: [delegate('worker')] }, { text: 'boss done' }]),
      worker: queue([{ toolCalls: [bash('echo chained')] }, { text: 'worker done' }]),
    });
    await s.open(['lead', 'boss'], true);
    s.start('lead');
    await waitCard('orchestration');
    await s.until("mid's turn to end", () => s!.waits('mid') >= 1);
    // Per-hop approval off for the next chain only matters for the person; the waiting hold stays.
    await s.call('settingsSet', { key: 'orchestration.perHopApproval', value: false });
    expect((await s.ended(s.start('solo').id)).status).toBe('succeeded');
    expect((await s.ended(s.start('boss').id)).status).toBe('succeeded');
    expect(last(s.requests('worker')[1]!).split('\n')[0]).toBe('chained');
    expect(await cards('orchestration')).toHaveLength(1); // still waiting, and answerable
  });
});

describe('seed 003 "it can be denied for any of the same six reasons" (delegation is a chain hop)', () => {
  const setups: Record<string, (sc: Scenario) => Promise<void>> = {
    orchestration_stopped: async (sc) => {
      await sc.open(['lead', 'mid']);
      await sc.call('stopAll');
    },
    orchestration_not_entitled: async () => {},
    orchestration_disabled: async (sc) => {
      await sc.call('entitlementsImport', { token: await sc.account.token() });
    },
    orchestrator_not_allowed: async (sc) => sc.open(['lead']),
    chain_depth_exceeded: async (sc) => {
      await sc.open(['lead', 'mid']);
      await sc.call('settingsSet', { key: 'orchestration.maxDepth', value: 2 });
    },
    chain_agents_exceeded: async (sc) => {
      await sc.open(['lead', 'mid']);
      await sc.call('settingsSet', { key: 'orchestration.maxAgents', value: 2 });
    },
  };
  for (const [code, setup] of Object.entries(setups)) {
    it(`a delegate_task at hop 2 is denied ${code}: not performed, no task, the recipient never starts`, async () => {
      s = await scenario({
        lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
        mid: (req: ScriptedRequest, i: number) => (i === 0 ? { toolCalls: [delegate('leaf')] } : { text: `mid reports: ${last(req)}` }),
        leaf: queue([{ text: 'leaf never runs' }]),
      });
      await setup(s);
      await s.ended(s.start('lead').id);
      const row = s.rowsOf('mid').find((r) => r.origin === 'model' && r.tool === 'delegate_task')!;
      expect(row.state).toBe('failed');
      expect(row.error?.code).toBe(code);
      expect(structuredOf(last(s.requests('mid')[1]!))).toMatchObject({ code, hop: 2 });
      expect(s.runsOf('leaf')).toHaveLength(0);
      expect((s.gov.db.prepare("SELECT COUNT(*) AS n FROM tasks WHERE recipient = 'leaf'").get() as { n: number }).n).toBe(0);
      const [chain] = await s.call<ChainView[]>('chainsList');
      expect(chain.hops[1]).toMatchObject({ hop: 2, agent: 'mid', action: 'delegate_task', target: 'leaf', verdict: 'denied', code });
    });
  }
});

describe('DESIGN §3 "Stop all force-stops every run in flight (rows canceled, hook work canceled, nothing asks permission)"', () => {
  it('a stop hook at work when Stop all is pressed is canceled; no attention item; the model is asked nothing more', async () => {
    s = await scenario({ hooked: queue([{ text: 'candidate' }, { text: 'never' }]) });
    saveAgent(s.nexus.kernel, {
      name: 'hooked',
      mode: 'bypass',
      model: { provider: 'chat-completions', baseURL: s.models.hooked.baseURL, model: 'scripted-hooked' },
      lifecycle_hooks: { stop: [{ tool: 'bash', input: { command: 'sleep 30' }, timeout_s: 60 }] },
    });
    const run = s.start('hooked');
    const hook = await s.until('the stop hook at work', () => s!.rowsOf('hooked').find((r) => r.origin === 'kernel' && r.state === 'running'));
    expect(await s.call('stopAll')).toMatchObject({ stopped_runs: 1 });
    expect((await s.nexus.kernel.waitRow(hook.id)).state).toBe('canceled');
    expect(s.nexus.kernel.getRun(run.id)?.status).toBe('canceled');
    expect(await s.call('inboxList')).toEqual([]);
    expect(s.requests('hooked')).toHaveLength(1);
  });
});

describe('DESIGN §3 Delegation: "acceptance_check: { command, timeout_s? }"', () => {
  it('a check that outlives its timeout_s does not pass: the evidence says so and the task is refused', async () => {
    s = await scenario({
      lead: queue([
        { toolCalls: [{ name: 'delegate_task', input: { agent: 'mid', task: 'x', acceptance_check: { command: 'sleep 20', timeout_s: 1 } } }] },
        { text: 'lead done' },
      ]),
      mid: queue([{ text: 'done, trust me' }, { text: 'never' }]),
    });
    await s.call('settingsSet', { key: 'delegation.maxRefusals', value: 1 });
    const t0 = Date.now();
    await s.ended(s.start('lead').id);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const sc = structuredOf(last(s.requests('lead')[1]!))!;
    expect(sc).toMatchObject({ code: 'task_failed', refusals: 1 });
    const task = await s.call<{ status: string; evidence: Array<{ passed: boolean; exit_code: number | null }> }>('tasksShow', { id: sc.task_id });
    expect(task.status).toBe('failed');
    expect(task.evidence).toHaveLength(1);
    expect(task.evidence[0]!.passed).toBe(false);
  });
});

describe('seed 003 "The recorded evidence ... stays queryable per task, so a completed task can be audited"', () => {
  it('after a restart, tasks show still answers with the same evidence', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'x', 'echo audited')] }, { text: 'lead done' }]),
      mid: queue([{ text: 'mid done' }]),
    });
    await s.ended(s.start('lead').id);
    const id = structuredOf(last(s.requests('lead')[1]!))!.task_id as string;
    const before = await s.call<Record<string, unknown>>('tasksShow', { id });
    expect(before).toMatchObject({ status: 'completed', evidence: [{ command: 'echo audited', exit_code: 0, passed: true, output: 'audited\n' }] });
    const again = await s.reopen();
    try {
      expect(await again.call('tasksShow', { id })).toEqual(before);
    } finally {
      await again.close();
    }
  });
});

describe('seed 003 "closing either one is a real, immediate stop, not a suggestion the other side can override" (an approval is not a standing grant)', () => {
  const closers: Array<[string, string, unknown, string]> = [
    ['the switch turned off', 'orchestration.enabled', false, 'orchestration_disabled'],
    ['the orchestrator taken off the allowlist', 'orchestration.allowlist', [], 'orchestrator_not_allowed'],
    ['Maximum chain depth lowered', 'orchestration.maxDepth', 1, 'chain_depth_exceeded'],
  ];
  for (const [what, key, value, code] of closers) {
    it(`a hold approved after ${what}: the identical retry still crosses the gate first and is denied ${code}`, async () => {
      s = await scenario({
        lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
        mid: (req: ScriptedRequest): ScriptedReply =>
          /APPROVED/.test(req.userText)
            ? { toolCalls: [bash('echo hi')] }
            : req.toolResults.length
              ? { text: `mid: ${last(req)}` }
              : { toolCalls: [bash('echo hi')] },
      });
      await s.open(['lead'], true);
      s.start('lead');
      const card = await waitCard('orchestration');
      await s.until('mid waiting', () => s!.waits('mid') >= 1);
      await s.call('settingsSet', { key, value });
      await s.call('inboxApprove', { id: card.id });
      await s.until('mid to retry and report', () => s!.requests('mid').length >= 4 && s!.runsOf('mid')[0]?.status !== 'running');
      expect(
        s
          .rowsOf('mid')
          .filter((r) => r.origin === 'model')
          .map((r) => [r.state, r.error?.code]),
      ).toEqual([
        ['failed', 'hop_held'],
        ['failed', code],
      ]);
      const [chain] = await s.call<ChainView[]>('chainsList');
      expect(chain.hops[1]).toMatchObject({ hop: 2, verdict: 'denied', code });
    });
  }
});

describe('DESIGN §3 Stop all with a hold waiting', () => {
  it('Stop all closes the waiting orchestration card (it can no longer be answered) and the chain says orchestration_stopped; the model is asked nothing', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: (req: ScriptedRequest): ScriptedReply => (req.toolResults.length ? { text: 'waiting' } : { toolCalls: [bash('echo hi')] }),
    });
    await s.open(['lead'], true);
    s.start('lead');
    const card = await waitCard('orchestration');
    await s.until('mid waiting', () => s!.waits('mid') >= 1);
    const asked = s.requests('mid').length;
    await s.call('stopAll');
    expect(await s.call('inboxList')).toEqual([]);
    await expect(s.call('inboxApprove', { id: card.id })).rejects.toThrow(/conflict/);
    const [chain] = await s.call<ChainView[]>('chainsList');
    expect(chain.hops[1]).toMatchObject({ hop: 2, verdict: 'denied', code: 'orchestration_stopped' });
    await new Promise((r) => setTimeout(r, 100));
    expect(s.requests('mid')).toHaveLength(asked);
  });
});

describe('DESIGN §3 "a further hop (2, 3, …, numbered in the order recorded)"', () => {
  it('two governed calls in one fan are two hops, two holds, two cards, each awaiting approval', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo a'), bash('echo b')] }, { text: 'waiting' }]),
    });
    await s.open(['lead'], true);
    s.start('lead');
    await s.until('mid waiting', () => s!.waits('mid') >= 1);
    const holds = await cards('orchestration');
    expect(holds.map((c) => [c.hop, c.target])).toEqual([
      [2, 'echo a'],
      [3, 'echo b'],
    ]);
    expect(new Set(holds.map((c) => c.id)).size).toBe(2);
    const [chain] = await s.call<ChainView[]>('chainsList');
    expect(chain.hops.map((h) => [h.hop, h.target, h.verdict])).toEqual([
      [1, 'mid', 'allowed'],
      [2, 'echo a', 'awaiting_approval'],
      [3, 'echo b', 'awaiting_approval'],
    ]);
  });
});

describe('DESIGN §3 Chain: "Every action an agent then takes because of the chain — each tool call in a run the chain started — is a further hop"', () => {
  it('the starter acting on its own after a hand-off is not a hop (never gated); its next hand-off begins a new chain at hop 1', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { toolCalls: [bash('echo lead-own')] }, { toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo m1')] }, { text: 'mid 1' }, { toolCalls: [bash('echo m2')] }, { text: 'mid 2' }]),
    });
    // The closed defaults: every governed hop is denied, so anything not denied was not governed.
    const ended = await s.ended(s.start('lead').id);
    expect(ended.status).toBe('succeeded');
    expect(s.rowsOf('lead').map((r) => [r.tool, r.state])).toEqual([
      ['delegate_task', 'succeeded'],
      ['bash', 'succeeded'],
      ['delegate_task', 'succeeded'],
    ]);
    const chains = await s.call<ChainView[]>('chainsList');
    expect(chains.map((c) => c.hops.map((h) => [h.hop, h.agent, h.target, h.verdict]))).toEqual([
      [
        [1, 'lead', 'mid', 'allowed'],
        [2, 'mid', 'echo m2', 'denied'],
      ],
      [
        [1, 'lead', 'mid', 'allowed'],
        [2, 'mid', 'echo m1', 'denied'],
      ],
    ]);
    expect(new Set(s.runsOf('mid').map((r) => r.chain_id)).size).toBe(2);
  });
});

describe('seed 003 "An approval covers exactly that hop. It is consumed the moment the call proceeds and grants nothing standing"', () => {
  it('two identical retries in one fan after one approval: exactly one proceeds, the other is a new hold', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: (req: ScriptedRequest): ScriptedReply =>
        /APPROVED/.test(req.userText)
          ? { toolCalls: [bash('echo x'), bash('echo x')] }
          : req.toolResults.length
            ? { text: 'mid: done' }
            : { toolCalls: [bash('echo x')] },
    });
    await s.open(['lead'], true);
    s.start('lead');
    const card = await waitCard('orchestration');
    await s.until('mid waiting', () => s!.waits('mid') >= 1);
    await s.call('inboxApprove', { id: card.id });
    await s.until('mid to retry twice and stop', () => s!.requests('mid').length >= 4 && s!.waits('mid') >= 2);
    const retried = s
      .rowsOf('mid')
      .filter((r) => r.origin === 'model')
      .slice(1);
    expect(retried.map((r) => r.state).sort()).toEqual(['failed', 'succeeded']);
    expect(retried.find((r) => r.state === 'failed')?.error?.code).toBe('hop_held');
    const holds = await cards('orchestration');
    expect(holds).toHaveLength(1);
    expect(holds[0]!.id).not.toBe(card.id);
  });
});

describe('seed 003 "neither a cloud-side entitlement flip nor a local misconfiguration … closing either one is a real, immediate stop"', () => {
  it('an entitlement that expires between two hops of a running chain denies the next hop orchestration_not_entitled, with no restart', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([]), // scripted below, once the expiry is known
    });
    await s.open(['lead'], false);
    // Replace the hour-long token with one that expires in a few seconds.
    const exp = Math.floor(Date.now() / 1000) + 4;
    await s.call('entitlementsImport', { token: await s.account.token({ exp }) });
    // mid's second call waits until the token has expired.
    s.models.mid.setScript(
      queue([
        { toolCalls: [bash('echo before')] },
        { delayMs: Math.max(0, exp * 1000 - Date.now()) + 300, toolCalls: [bash('echo after')] },
        { text: 'mid done' },
      ]),
    );
    await s.ended(s.start('lead').id, 20_000);
    expect(
      s
        .rowsOf('mid')
        .filter((r) => r.origin === 'model')
        .map((r) => [(r.input as { command: string }).command, r.state, r.error?.code ?? null]),
    ).toEqual([
      ['echo before', 'succeeded', null],
      ['echo after', 'failed', 'orchestration_not_entitled'],
    ]);
  });
});
