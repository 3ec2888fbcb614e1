// Each of the six denial reasons reaches the model that was denied: its next request carries the sentence
// and the structuredContent line with the code. Multi-agent chains, scripted models over real HTTP, the
// real kernel. Hop 1 (the hand-off by an agent acting on its own) is never governed nor held.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../../test/support/scripted-model.js';
import { bash, delegate, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import type { ChainView } from '../../../shared/types.js';
import type { InboxItem } from '../../../shared/api/inbox.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

const lastToolResult = (r: ScriptedRequest) => r.toolResults.at(-1)?.text ?? '';
/** lead delegates to mid; mid runs `act`; each model reports what it read, then stops. */
const cast = (act: { name: string; input: unknown }, extra: Record<string, (req: ScriptedRequest, i: number) => object> = {}) => ({
  lead: (req: ScriptedRequest, i: number) => (i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${lastToolResult(req)}` }),
  mid: (req: ScriptedRequest, i: number) => (i === 0 ? { toolCalls: [act] } : { text: `mid reports: ${lastToolResult(req)}` }),
  leaf: (_req: ScriptedRequest) => ({ text: 'leaf done' }),
  ...extra,
});

async function deniedWith(code: string, act: { name: string; input: unknown } = bash('echo hi')) {
  const run = s!.start('lead');
  await s!.ended(run.id);
  const mid = s!.requests('mid');
  expect(mid.length).toBe(2);
  const text = lastToolResult(mid[1]);
  const sc = structuredOf(text);
  expect(sc).toMatchObject({ code, chain_id: expect.stringMatching(/^chain_/), hop: 2, setting: expect.any(String), reason: expect.any(String) });
  expect(sc!.retryable).toBe(code === 'chain_depth_exceeded' || code === 'chain_agents_exceeded');
  // The sentence comes first, on its own; the JSON line after it.
  expect(text.split('\n')[0]).not.toMatch(/^\{/);
  // The denied call was not performed.
  const midRow = s!.rowsOf('mid').find((r) => r.origin === 'model')!;
  expect(midRow.wire_tool).toBe(act.name);
  expect(midRow.state).toBe('failed');
  expect(midRow.error?.code).toBe(code);
  return { text, sc: sc! };
}

describe('the six reasons reach the model (scripted models, real HTTP, real kernel)', () => {
  it('orchestration_stopped: Stop all pressed before the chain began denies its first governed hop', async () => {
    s = await scenario(cast(bash('echo hi')));
    await s.open(['lead']);
    await s.call('stopAll');
    const { text } = await deniedWith('orchestration_stopped');
    expect(text).toMatch(/Stop all/);
  });
  it("orchestration_not_entitled: the defaults (no entitlement) deny the recipient's first action", async () => {
    s = await scenario(cast(bash('echo hi')));
    const { text } = await deniedWith('orchestration_not_entitled');
    expect(text).toMatch(/nexus entitlements import/);
    // "An agent that is denied should report the reason it was given rather than retrying": its instructions say so.
    expect(s.requests('mid')[1].system).toMatch(/report it in your answer rather than retrying/);
  });
  it('orchestration_disabled: entitled but the local setting is off', async () => {
    s = await scenario(cast(bash('echo hi')));
    await s.call('entitlementsImport', { token: await s.account.token() });
    const { sc } = await deniedWith('orchestration_disabled');
    expect(sc.setting).toBe('orchestration.enabled');
  });
  it('orchestrator_not_allowed: the allowlist starts empty', async () => {
    s = await scenario(cast(bash('echo hi')));
    await s.call('entitlementsImport', { token: await s.account.token() });
    await s.call('settingsSet', { key: 'orchestration.enabled', value: true });
    const { text } = await deniedWith('orchestrator_not_allowed');
    expect(text).toContain('"lead"');
  });
  it('chain_depth_exceeded: mid (depth 2) handing on would run at depth 3 > 2', async () => {
    s = await scenario(cast(delegate('leaf')));
    await s.open(['lead', 'mid']);
    await s.call('settingsSet', { key: 'orchestration.maxDepth', value: 2 });
    const { text } = await deniedWith('chain_depth_exceeded', delegate('leaf'));
    expect(text).toMatch(
      /^Chain depth limit reached: this hop would run at depth 3 and the limit is 2\. Raise Maximum chain depth in Settings ▸ Agents ▸ Orchestration, or wait for the run in progress to finish\./,
    );
    expect(s.runsOf('leaf')).toHaveLength(0);
  });
  it('chain_agents_exceeded: a third agent would exceed Maximum agents per chain 2', async () => {
    s = await scenario(cast({ name: 'message_agent', input: { agent: 'leaf', message: 'hi' } }));
    await s.open(['lead', 'mid']);
    await s.call('settingsSet', { key: 'orchestration.maxAgents', value: 2 });
    const { text } = await deniedWith('chain_agents_exceeded', { name: 'message_agent', input: { agent: 'leaf', message: 'hi' } });
    expect(text).toMatch(/3 distinct agents and the limit is 2/);
    expect(s.runsOf('leaf')).toHaveLength(0);
  });
  it("the delegator reads the recipient's report of the denial (the answer travelling back is not a hop)", async () => {
    s = await scenario(cast(bash('echo hi')));
    const run = s.start('lead');
    const ended = await s.ended(run.id);
    expect(ended.status).toBe('succeeded');
    expect(lastToolResult(s.requests('lead')[1])).toMatch(/mid reports: .*orchestration_not_entitled/s);
    const [chain] = await s.call<ChainView[]>('chainsList');
    expect(chain.hops.map((h) => [h.hop, h.agent, h.action, h.verdict, h.code ?? null])).toEqual([
      [1, 'lead', 'delegate_task', 'allowed', null],
      [2, 'mid', 'bash', 'denied', 'orchestration_not_entitled'],
    ]);
  });
});

describe('hop 1', () => {
  it('is never governed nor held: with everything closed, a hand-off with nothing following runs, holds nothing, and is not listed', async () => {
    s = await scenario({
      lead: (req, i) => (i === 0 ? { toolCalls: [delegate('mid', 'Say hello.')] } : { text: `lead got: ${lastToolResult(req)}` }),
      mid: () => ({ text: 'hello from mid' }),
    });
    // Defaults: not entitled, off, empty allowlist, per-hop approval ON.
    const run = s.start('lead');
    const ended = await s.ended(run.id);
    expect(ended.status).toBe('succeeded');
    expect(ended.final_answer?.split('\n')[0]).toBe('lead got: hello from mid');
    expect(structuredOf(ended.final_answer ?? '')).toMatchObject({ status: 'completed', recipient: 'mid' });
    expect(await s.call<InboxItem[]>('inboxList')).toEqual([]);
    // "a lone action, including one agent triggering another with nothing following, has not composed yet"
    expect(await s.call('chainsList')).toEqual([]);
    expect(s.runsOf('mid')[0].chain_id).toMatch(/^chain_/);
  });
});
