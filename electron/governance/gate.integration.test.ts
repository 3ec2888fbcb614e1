// The gate through the REAL kernel (real SQLite, real rows): chains are laid out with the chain store exactly
// as a hand-off lays them out, then model rows are submitted to the kernel. The multi-agent scenarios with
// scripted models over HTTP are in test/governance/.
import { afterEach, describe, expect, it } from 'vitest';
import { saveAgent } from '../agents/profiles.js';
import { addMember, beginChain, bindMemberRun } from '../store/queries/chains.js';
import { setDeskJoined } from '../store/queries/desk-outbox.js';
import { recipientPosition, starterPosition, type ChainPosition } from '../../shared/orchestration/chain.js';
import { openGate, testNexus, type TestNexus } from '../../test/support/nexus.js';
import type { Row, Run } from '../kernel/types.js';
import type { ChainView } from '../../shared/types.js';
import type { InboxItem } from '../../shared/api/inbox.js';

let open: TestNexus[] = [];
afterEach(async () => {
  for (const t of open) await t.close();
  open = [];
});
const start = async () => {
  const t = await testNexus({ modules: { governance: true } });
  open.push(t);
  for (const name of ['lead', 'mid', 'leaf', 'extra', 'more']) {
    saveAgent(t.nexus.kernel, { name, model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }, mode: 'bypass' });
  }
  return t;
};

/** Lay out lead → mid (hop 1 recorded as a hand-off does) and return mid's run. */
function chainOf(t: TestNexus, from: Run, to: string, parentPos?: ChainPosition & { chain_id: string }): { run: Run; chain_id: string; pos: ChainPosition } {
  const k = t.nexus.kernel;
  const now = k.clock.now();
  const handoffRow = `row_handoff_${Math.random().toString(16).slice(2)}`;
  let chain_id: string;
  let pos: ChainPosition;
  if (!parentPos) {
    chain_id = beginChain(t.gov.db, { starter: from.agent!, starterRunId: from.id, recipient: to, now }).id;
    t.gov.recent.recordHop(chain_id, { hop: 1, agent: from.agent!, action: 'delegate_task', target: to, verdict: 'allowed' });
    pos = recipientPosition(starterPosition(from.agent!), to);
  } else {
    chain_id = parentPos.chain_id;
    pos = recipientPosition(parentPos, to);
  }
  addMember(t.gov.db, { handoff_row_id: handoffRow, chain_id, position: pos, now });
  const run = k.createRun({ agent: to, mode: 'bypass', chain_id, parent: { run_id: from.id, row_id: handoffRow } });
  bindMemberRun(t.gov.db, handoffRow, run.id);
  return { run, chain_id, pos };
}

const bash = (t: TestNexus, run: Run, command: string): Row => t.nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command }, origin: 'model' });
const code = (r: Row) => (r.result?.structuredContent as { code?: string } | undefined)?.code ?? null;
const sc = (r: Row) => r.result?.structuredContent as Record<string, unknown>;

describe('the gate in the kernel', () => {
  it('a lone agent acting by itself is never governed nor held (defaults: everything closed)', async () => {
    const t = await start();
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const row = await t.nexus.kernel.waitRow(bash(t, lead, 'echo alone').id);
    expect(row.state).toBe('succeeded');
    expect(await t.call('inboxList')).toEqual([]);
  });

  it('with the defaults, a governed hop is denied orchestration_not_entitled and not performed', async () => {
    const t = await start();
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid, chain_id } = chainOf(t, lead, 'mid');
    const row = bash(t, mid, 'touch should-not-exist');
    expect(row.state).toBe('failed');
    expect(sc(row)).toMatchObject({
      code: 'orchestration_not_entitled',
      retryable: false,
      chain_id,
      hop: 2,
      setting: expect.any(String),
      reason: expect.any(String),
    });
    expect(row.result?.isError).toBe(true);
    expect(row.error?.code).toBe('orchestration_not_entitled');
  });

  it('per-hop approval: held → same request id while waiting → approved → the identical retry proceeds, once', async () => {
    const t = await start();
    await openGate(t, ['lead']);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid, chain_id } = chainOf(t, lead, 'mid');
    const held = bash(t, mid, 'echo one');
    expect(code(held)).toBe('hop_held');
    // "A held call is answered immediately rather than parked": the row is over, nothing waits on a person.
    expect(held.state).toBe('failed');
    expect(held.result?.isError).toBe(true);
    const request_id = sc(held).request_id as string;
    expect(request_id).toMatch(/^[0-9a-f]{32}$/);
    const inbox = await t.call<InboxItem[]>('inboxList');
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ id: request_id, kind: 'orchestration', agent: 'mid', tool: 'bash', target: 'echo one', hop: 2, chain_id, run_id: mid.id });

    // Still waiting: the same request id, no second card; key order does not matter.
    const again = t.nexus.kernel.submitRow(mid.id, { tool: 'bash', input: { command: 'echo one' }, origin: 'model' });
    expect(sc(again)).toMatchObject({ code: 'hop_held', request_id, hop: 2 });
    expect(await t.call<InboxItem[]>('inboxList')).toHaveLength(1);

    let chains = await t.call<ChainView[]>('chainsList');
    expect(chains[0].hops[1]).toMatchObject({ hop: 2, agent: 'mid', verdict: 'awaiting_approval', request_id });
    // Trust for the session never covers a hold: asked with it, nothing is approved; without it, approved.
    await expect(t.call('inboxApprove', { id: request_id, trust_session: true })).rejects.toThrow(/Trust for this session never covers an orchestration hold/);
    expect(await t.call('inboxApprove', { id: request_id })).toEqual({ id: request_id, state: 'approved' });
    chains = await t.call<ChainView[]>('chainsList');
    expect(chains[0].hops[1].verdict).toBe('approved'); // switched the moment it was answered
    expect(await t.call<InboxItem[]>('inboxList')).toEqual([]);

    const ok = bash(t, mid, 'echo one');
    expect(ok.state).toBe('running');
    expect((await t.nexus.kernel.waitRow(ok.id)).state).toBe('succeeded');
    // Consumed: the next identical call is a new hold (a new hop).
    const next = bash(t, mid, 'echo one');
    expect(sc(next)).toMatchObject({ code: 'hop_held', hop: 3 });
    expect(sc(next).request_id).not.toBe(request_id);
    // A changed input is a new hold too.
    const changed = bash(t, mid, 'echo two');
    expect(sc(changed)).toMatchObject({ code: 'hop_held', hop: 4 });
    expect(await t.call<InboxItem[]>('inboxList')).toHaveLength(2);
  });

  it('refused → hop_refused, reported as a refusal, on every identical retry; Recent chains says refused', async () => {
    const t = await start();
    await openGate(t, ['lead']);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid } = chainOf(t, lead, 'mid');
    const request_id = sc(bash(t, mid, 'rm -rf x')).request_id as string;
    expect(await t.call('inboxDeny', { id: request_id, reason: 'not today' })).toEqual({ id: request_id, state: 'refused' });
    const r = bash(t, mid, 'rm -rf x');
    expect(sc(r)).toMatchObject({ code: 'hop_refused', request_id, retryable: false });
    expect(r.result?.content[0].text).toMatch(/refused/i);
    expect(r.result?.content[0].text).toMatch(/not today/);
    const [c] = await t.call<ChainView[]>('chainsList');
    expect(c.hops.map((h) => h.verdict)).toEqual(['allowed', 'refused']);
  });

  it('flipping orchestration.enabled off between two hops, with no restart, denies the next hop', async () => {
    const t = await start();
    await openGate(t, ['lead'], false);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid } = chainOf(t, lead, 'mid');
    expect(bash(t, mid, 'echo a').state).toBe('running');
    await t.call('settingsSet', { key: 'orchestration.enabled', value: false });
    expect(code(bash(t, mid, 'echo b'))).toBe('orchestration_disabled');
    await t.call('settingsSet', { key: 'orchestration.enabled', value: true });
    expect(bash(t, mid, 'echo c').state).toBe('running');
  });

  it('depth and agents are counted from the store: orchestrators, depth limit, agent limit', async () => {
    const t = await start();
    await openGate(t, ['lead'], false);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const a = chainOf(t, lead, 'mid');
    // mid hands on to leaf: orchestrators [lead, mid]; mid is not allowed yet.
    const h = t.nexus.kernel.submitRow(a.run.id, {
      tool: 'delegate_task',
      input: { agent: 'leaf', task: 'x', acceptance_check: { command: 'true' } },
      origin: 'model',
    });
    expect(sc(h)).toMatchObject({ code: 'orchestrator_not_allowed' });
    await t.call('settingsSet', { key: 'orchestration.allowlist', value: 'lead,mid,leaf' });
    await t.call('settingsSet', { key: 'orchestration.maxDepth', value: 2 });
    const d = t.nexus.kernel.submitRow(a.run.id, { tool: 'message_agent', input: { agent: 'leaf', message: 'hi' }, origin: 'model' });
    expect(sc(d)).toMatchObject({ code: 'chain_depth_exceeded', retryable: true });
    expect(d.result?.content[0].text).toBe(
      'Chain depth limit reached: this hop would run at depth 3 and the limit is 2. Raise Maximum chain depth in Settings ▸ Agents ▸ Orchestration, or wait for the run in progress to finish.',
    );
    await t.call('settingsSet', { key: 'orchestration.maxDepth', value: 3 });
    await t.call('settingsSet', { key: 'orchestration.maxAgents', value: 2 });
    const b = t.nexus.kernel.submitRow(a.run.id, { tool: 'message_agent', input: { agent: 'leaf', message: 'hi' }, origin: 'model' });
    expect(sc(b)).toMatchObject({ code: 'chain_agents_exceeded', retryable: true });
    const [c] = await t.call<ChainView[]>('chainsList');
    expect(c.hops.map((x) => [x.hop, x.verdict, x.code ?? null])).toEqual([
      [1, 'allowed', null],
      [2, 'denied', 'orchestrator_not_allowed'],
      [3, 'denied', 'chain_depth_exceeded'],
      [4, 'denied', 'chain_agents_exceeded'],
    ]);
  });

  it('a restart cannot reset a limit mid-chain: hop numbers and touched agents survive in the store', async () => {
    let t = await start();
    await openGate(t, ['lead', 'mid', 'leaf'], false);
    await t.call('settingsSet', { key: 'orchestration.maxAgents', value: 3 });
    await t.call('settingsSet', { key: 'orchestration.maxDepth', value: 5 });
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const a = chainOf(t, lead, 'mid');
    const b = chainOf(t, a.run, 'leaf', { ...a.pos, chain_id: a.chain_id });
    // The gate touches `leaf` only when a hand-off passes it; here the layout stands for one that did.
    t.gov.db.prepare('UPDATE chains SET touched_json = ? WHERE id = ?').run(JSON.stringify(['lead', 'mid', 'leaf']), a.chain_id);
    t.gov.db.prepare('UPDATE chains SET hop_count = 3 WHERE id = ?').run(a.chain_id);
    const t2 = await t.reopen();
    open = open.filter((x) => x !== t);
    open.push(t2);
    t = t2;
    const r = t.nexus.kernel.submitRow(b.run.id, { tool: 'message_agent', input: { agent: 'extra', message: 'hi' }, origin: 'model' });
    expect(sc(r)).toMatchObject({ code: 'chain_agents_exceeded', hop: 4 });
    expect(r.result?.content[0].text).toMatch(/4 distinct agents and the limit is 3/);
  });

  it("each governed hop's number is kept on its row, granted or denied; a restart goes on after the highest", async () => {
    let t = await start();
    await openGate(t, ['lead'], false);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid, chain_id } = chainOf(t, lead, 'mid');
    const hopOf = (r: Row) => t.gov.db.prepare('SELECT hop FROM rows WHERE id = ?').pluck().get(r.id);
    const granted = bash(t, mid, 'echo one');
    expect(granted.state).toBe('running');
    await t.call('settingsSet', { key: 'orchestration.enabled', value: false });
    const denied = bash(t, mid, 'echo two');
    expect(sc(denied)).toMatchObject({ code: 'orchestration_disabled', hop: 3 });
    expect([hopOf(granted), hopOf(denied)]).toEqual([2, 3]);
    expect(hopOf(bash(t, lead, 'echo starter'))).toBeNull(); // the starter's own calls are not hops
    // Without a desk the chain itself is not rewritten at every hop: the number lives on the rows.
    expect(t.gov.db.prepare('SELECT hop_count FROM chains WHERE id = ?').pluck().get(chain_id)).toBe(1);
    await t.nexus.kernel.waitRow(granted.id);

    const t2 = await t.reopen();
    open = open.filter((x) => x !== t);
    open.push(t2);
    t = t2;
    const again = t.nexus.kernel.submitRow(mid.id, { tool: 'bash', input: { command: 'echo three' }, origin: 'model' });
    expect(sc(again)).toMatchObject({ code: 'orchestration_disabled', hop: 4 });
  });

  it("joined to a desk, the chain's count follows every hop: the desk's record reads it from the chain", async () => {
    const t = await start();
    await openGate(t, ['lead'], false);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid, chain_id } = chainOf(t, lead, 'mid');
    setDeskJoined(t.gov.db, true);
    await t.nexus.kernel.waitRow(bash(t, mid, 'echo one').id);
    await t.nexus.kernel.waitRow(bash(t, mid, 'echo two').id);
    expect(t.gov.db.prepare('SELECT hop_count FROM chains WHERE id = ?').pluck().get(chain_id)).toBe(3);
    const counts = t.gov.db
      .prepare("SELECT json_extract(data_json, '$.hop_count') FROM desk_outbox WHERE kind = 'chain' AND ref = ? ORDER BY seq")
      .pluck()
      .all(chain_id);
    expect(counts).toEqual([2, 3]);
  });

  it('Stop all: every run in flight is force-stopped, every governed hop denied until Resume', async () => {
    const t = await start();
    await openGate(t, ['lead'], false);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid } = chainOf(t, lead, 'mid');
    const sleeping = bash(t, mid, 'sleep 30');
    expect(sleeping.state).toBe('running');
    const other = t.nexus.kernel.createRun({ agent: 'extra', mode: 'bypass' });
    expect(await t.call('stopAll')).toEqual({ stopped_runs: 3 });
    expect((await t.nexus.kernel.waitRow(sleeping.id)).state).toBe('canceled');
    for (const r of [lead, mid, other]) expect(t.nexus.kernel.getRun(r.id)?.status).toBe('canceled');
    expect(await t.call('status')).toMatchObject({ stop_all: true, runs_in_flight: 0 });
    const { run: mid2 } = chainOf(t, t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' }), 'mid');
    expect(code(bash(t, mid2, 'echo x'))).toBe('orchestration_stopped');
    expect((await t.call<{ 'orchestration.stopAll': boolean }>('resume'))['orchestration.stopAll']).toBe(false);
    expect(bash(t, mid2, 'echo y').state).toBe('running');
  });

  it('no setting can change the entitlement: the settings door refuses it, and the gate still says not entitled', async () => {
    const t = await start();
    for (const key of ['entitlement', 'nexus.orchestration', 'orchestration.entitled', 'orchestration.stopAll']) {
      await expect(t.call('settingsSet', { key, value: true })).rejects.toThrow(/invalid_input/);
    }
    await t.call('settingsSet', { key: 'orchestration.enabled', value: true });
    await t.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid } = chainOf(t, lead, 'mid');
    expect(code(bash(t, mid, 'echo x'))).toBe('orchestration_not_entitled');
  });

  it('settings_changed on every settings change, Stop all, Resume and an entitlement import; chains_changed on every recorded hop', async () => {
    const t = await start();
    const events: string[] = [];
    t.nexus.onEvent((e) => events.push(e.type));
    await t.call('settingsSet', { key: 'orchestration.maxDepth', value: 4 });
    await t.call('stopAll');
    await t.call('resume');
    await t.call('entitlementsImport', { token: await t.account.token() });
    expect(events.filter((e) => e === 'settings_changed')).toHaveLength(4);
    // A refused setting changes nothing and announces nothing.
    await expect(t.call('settingsSet', { key: 'orchestration.maxDepth', value: 0 })).rejects.toThrow(/invalid_setting/);
    expect(events.filter((e) => e === 'settings_changed')).toHaveLength(4);
    expect((await t.call<Record<string, unknown>>('settingsGet'))['orchestration.maxDepth']).toBe(4);
    const lead = t.nexus.kernel.createRun({ agent: 'lead', mode: 'bypass' });
    const { run: mid } = chainOf(t, lead, 'mid');
    const before = events.filter((e) => e === 'chains_changed').length;
    bash(t, mid, 'echo x');
    expect(events.filter((e) => e === 'chains_changed').length).toBe(before + 1);
  });

  it('a run claiming a chain with no recorded position fails closed', async () => {
    const t = await start();
    const r = t.nexus.kernel.createRun({ agent: 'mid', mode: 'bypass', chain_id: 'chain_ghost' });
    const row = bash(t, r, 'echo sneaky');
    expect(row.state).toBe('failed');
    expect(row.error?.code).toBe('approval_error');
  });
});
