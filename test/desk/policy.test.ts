// The desk holds the policy (docs/desk.md): a policy member publishes agent profiles and settings with
// deskPolicyPush (`nexus desk policy push`), every joined kernel applies them to its own store, a local edit of
// what the desk holds is refused, a person outside nexus_policy is refused by the database itself, and a value at
// the desk that does not validate is applied nowhere. Two real kernels, one real Postgres cluster.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { deskWorld, until, type DeskWorld } from '../support/desk.js';
import { dispatch } from '../../electron/api/index.js';
import { createAgentRun } from '../../electron/agents/profiles.js';
import type { Nexus } from '../../electron/app.js';
import type { InputOf, MethodName, Methods, OutputOf, Result } from '../../shared/api/index.js';

let desk: DeskWorld;
let pg: PgCluster;
let admin: postgres.Sql;

const callOn =
  (n: Nexus) =>
  <K extends MethodName>(name: K, input: InputOf<Methods[K]>): Promise<Result<OutputOf<Methods[K]>>> =>
    dispatch(n.handlers, name, input, { door: 'internal' }) as Promise<Result<OutputOf<Methods[K]>>>;

// A is laptop_a acting as pat (nexus_policy); B is laptop_b acting as bob (a person, no policy rights).
const up = async (name: string, role: string, person: string) => {
  const m = await desk.machine(desk.named(name), role, person);
  await until(() => m.desk.status().connected, 5000, `${name} connected`);
  return m;
};

const guardBot = {
  name: 'guard-bot',
  model: { provider: 'chat-completions' as const, baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
  mode: 'ask' as const,
  approval_rules: [{ tool: 'probe', verdict: 'deny' as const, reason: 'the team never lets guard-bot probe' }],
};

describe.skipIf(!pgAvailable)('the desk holds the policy', () => {
  beforeAll(async () => {
    desk = await deskWorld();
    ({ pg, admin } = desk);
    await admin`GRANT pat TO laptop_a`;
  }, 60_000);
  afterEach(async () => {
    await desk.reset();
    await admin`DELETE FROM desk.policy`;
  });
  afterAll(async () => desk?.destroy());

  it("applies a policy member's pushed profile and allowlist on B, whose stage then denies the call by that rule", async () => {
    const a = await up('a', 'laptop_a', 'pat');
    const b = await up('b', 'laptop_b', 'bob');
    expect((await callOn(a.nexus)('agentsSave', guardBot)).ok).toBe(true);
    expect((await callOn(a.nexus)('settingsSet', { key: 'orchestration.allowlist', value: ['guard-bot'] })).ok).toBe(true);
    expect((await callOn(a.nexus)('settingsSet', { key: 'orchestration.maxDepth', value: 2 })).ok).toBe(true);

    const t0 = Date.now();
    const pushed = await callOn(a.nexus)('deskPolicyPush', {});
    expect(pushed).toMatchObject({ ok: true, value: { person: 'pat' } });
    expect(pushed.ok && [...pushed.value.keys].sort()).toEqual(['agent:guard-bot', 'agent:ops-bot', 'settings']);
    const [row] = await admin`SELECT updated_by FROM desk.policy WHERE key = 'agent:guard-bot'`;
    expect(row?.updated_by).toBe('pat');

    await until(() => b.nexus.governance!.settings()['orchestration.allowlist'].includes('guard-bot'), 3000, 'the allowlist on B');
    await until(() => b.nexus.kernel.records.agent('guard-bot'), 3000, 'guard-bot on B');
    const appliedMs = Date.now() - t0;
    expect(appliedMs).toBeLessThan(3000);
    console.log(`policy push on A -> applied on B: ${appliedMs} ms`);
    expect(b.nexus.governance!.settings()['orchestration.maxDepth']).toBe(2);

    const run = createAgentRun(b.nexus.kernel, { agent: 'guard-bot', prompt: 'probe it' });
    const denied = b.nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x: 1 }, origin: 'model' });
    const ended = await b.nexus.kernel.waitRow(denied.id);
    expect(ended.state).toBe('failed');
    expect(JSON.stringify(ended)).toContain('the team never lets guard-bot probe');
    expect(b.probe.calls).toHaveLength(0);
  });

  it('applies the policy the desk already held when B joins (catch-up: NOTIFY has no replay)', async () => {
    const a = await up('a', 'laptop_a', 'pat');
    await callOn(a.nexus)('agentsSave', guardBot);
    await callOn(a.nexus)('settingsSet', { key: 'orchestration.allowlist', value: ['guard-bot'] });
    expect((await callOn(a.nexus)('deskPolicyPush', {})).ok).toBe(true);
    const b = await up('b', 'laptop_b', 'bob');
    await until(() => b.nexus.kernel.records.agent('guard-bot'), 3000, 'guard-bot on B after joining');
    expect(b.nexus.kernel.records.agent('guard-bot')?.approval_rules).toEqual(guardBot.approval_rules);
    await until(() => b.nexus.governance!.settings()['orchestration.allowlist'].includes('guard-bot'), 3000, 'the allowlist on B');
  });

  it('refuses a local edit on B of what the desk holds, with a sentence, and leaves what it does not hold alone', async () => {
    const a = await up('a', 'laptop_a', 'pat');
    const b = await up('b', 'laptop_b', 'bob');
    await callOn(a.nexus)('agentsSave', guardBot);
    await callOn(a.nexus)('deskPolicyPush', {});
    await until(() => b.desk.policy.held.agents.has('guard-bot'), 3000, 'held on B');

    const edit = await callOn(b.nexus)('agentsSave', { ...guardBot, approval_rules: [] });
    expect(edit).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(!edit.ok && edit.error.message).toMatch(/desk holds agent guard-bot's policy: change it with nexus desk policy push from a policy member/);
    expect(await callOn(b.nexus)('agentsRemove', { name: 'guard-bot' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const setting = await callOn(b.nexus)('settingsSet', { key: 'orchestration.allowlist', value: [] });
    expect(!setting.ok && setting.error.message).toMatch(/desk holds the setting orchestration.allowlist/);
    // An agent the desk does not hold is B's own.
    expect((await callOn(b.nexus)('agentsSave', { ...guardBot, name: 'local-bot' })).ok).toBe(true);
  });

  it('refuses a push from a person outside nexus_policy in the database itself, and changes nothing', async () => {
    const b = await up('b', 'laptop_b', 'bob');
    const r = await callOn(b.nexus)('deskPolicyPush', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(!r.ok && r.error.message).toBe(
      "The desk refused: bob is not a member of nexus_policy, so it may not change the desk's policy (nothing was changed).",
    );
    expect(await admin`SELECT key FROM desk.policy`).toHaveLength(0);
    // Straight at the database too: bob's own connection may write Stop all, never a profile.
    const bob = postgres(pg.url('bob'), { onnotice: () => {}, max: 1 });
    try {
      await expect(bob`INSERT INTO desk.policy (key, value) VALUES ('agent:x', '{}'::jsonb)`).rejects.toThrow(/row-level security/);
    } finally {
      await bob.end();
    }
  });

  it('applies no part of a value at the desk that does not validate, and logs why', async () => {
    const b = await up('b', 'laptop_b', 'bob');
    const before = b.nexus.governance!.settings();
    const bad = { ...guardBot, name: 'bad-bot', approval_rules: [{ tool: 'probe', verdict: 'maybe' }] };
    await admin`INSERT INTO desk.policy (key, value) VALUES ('agent:bad-bot', ${admin.json(bad)})`;
    // One bad key spoils the whole settings value: the good allowlist beside it is not applied either.
    await admin`INSERT INTO desk.policy (key, value) VALUES ('settings', ${admin.json({ 'orchestration.allowlist': ['bad-bot'], 'orchestration.maxDepth': 'deep' })})`;
    await until(() => b.desk.policy.outcomes.filter((o) => !o.applied).length === 2, 3000, 'both refused on B');
    expect(b.nexus.kernel.records.agent('bad-bot')).toBeFalsy();
    expect(b.nexus.governance!.settings()).toEqual(before);
    const reasons = b.desk.policy.outcomes.map((o) => (o.applied ? '' : o.reason)).join('\n');
    expect(reasons).toMatch(/verdict/);
    expect(reasons).toMatch(/orchestration.maxDepth/);
  });
});
