// The offline demo through the real kernel and gate (real SQLite, real HTTP to the demo model): on a fresh
// install it parks the planner's hand-off (an autonomy card) and the gate then DENIES hop 2 for want of the
// entitlement — the demo never fakes one and changes no setting.
import { describe, it, expect, afterEach } from 'vitest';
import { createNexus, type Nexus } from '../app.js';
import { dispatch } from '../api/dispatch.js';
import { builderReply, plannerReply } from './demo-model.js';
import { expectation } from './setup.js';
import { world } from '../../test/support/world.js';

let w = world();
let nexus: Nexus | null = null;
afterEach(async () => {
  await w.cleanup();
  w = world();
  nexus = null;
});

const call = async <T>(name: string, input: unknown = {}): Promise<T> => {
  const r = await dispatch(nexus!.handlers, name, input, { door: 'internal' });
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
};
async function until<T>(what: string, f: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('offline demo', () => {
  it('plays a two-agent chain through the real gate: an autonomy card, then hop 2 denied orchestration_not_entitled', async () => {
    const n = (nexus = await createNexus({ dataDir: w.dir('demo') }));
    w.defer(() => n.close());
    const before = await call<Record<string, unknown>>('settingsGet');
    const started = await call<{ run_id: string; gate: { entitled: boolean }; expect: string }>('demoStart');
    expect(started.gate.entitled).toBe(false);
    expect(started.expect).toMatch(/DENIED with orchestration_not_entitled/);
    // The end of the denied path (a failed task, a Needs attention card) is announced, not a surprise.
    expect(started.expect).toMatch(/acceptance check \(test -s hello.md\) fails .* Needs attention card/);

    const card = await until('the planner card', async () =>
      (await call<{ id: string; kind: string; agent: string; tool: string }[]>('inboxList')).find((c) => c.agent === 'demo-planner'),
    );
    expect(card).toMatchObject({ kind: 'autonomy', tool: 'delegate_task' });
    await call('inboxApprove', { id: card.id });

    const chain = await until(
      'hop 2 in Recent chains',
      async () => (await call<{ hops: { hop: number; agent: string; verdict: string; code?: string }[] }[]>('chainsList'))[0],
    );
    expect(chain.hops[0]).toMatchObject({ hop: 1, agent: 'demo-planner', verdict: 'allowed' });
    expect(chain.hops[1]).toMatchObject({ hop: 2, agent: 'demo-builder', verdict: 'denied', code: 'orchestration_not_entitled' });
    expect(await call('settingsGet')).toEqual(before);
  });

  it('scripts the agents on what they read: report a denial, retry only when told APPROVED', () => {
    const tool = (text: string) => ({ role: 'tool', content: text });
    expect(plannerReply([{ role: 'user', content: 'go' }])).toMatchObject({ call: { name: 'delegate_task' } });
    expect(builderReply([{ role: 'user', content: 'task' }])).toMatchObject({ call: { name: 'write' } });
    const held = builderReply([{ role: 'user', content: 't' }, { role: 'assistant' }, tool('Held.\n{"code":"hop_held","request_id":"abc"}')]);
    expect(held).toEqual({ text: expect.stringContaining('request abc') });
    expect(builderReply([{ role: 'user', content: 't' }, { role: 'assistant' }, { role: 'user', content: 'Your hop was APPROVED (abc).' }])).toMatchObject({
      call: { name: 'write' },
    });
    // An expired hold reads as expired, never as a person's refusal; a person's refusal as one.
    expect(builderReply([{ role: 'user', content: 't' }, { role: 'assistant' }, tool('Expired.\n{"code":"hop_refused","reason":"approval_expired"}')])).toEqual(
      {
        text: expect.stringMatching(/^Nobody answered this hop within 24 hours/),
      },
    );
    expect(
      builderReply([{ role: 'user', content: 't' }, { role: 'assistant' }, tool('Refused.\n{"code":"hop_refused","reason":"refused_by_person"}')]),
    ).toEqual({
      text: expect.stringMatching(/^A person refused this hop/),
    });
    expect(builderReply([{ role: 'user', content: 't' }, { role: 'assistant' }, tool('Denied.\n{"code":"orchestration_disabled"}')])).toEqual({
      text: expect.stringContaining('orchestration_disabled'),
    });
    expect(builderReply([{ role: 'user', content: 't' }, { role: 'assistant' }, { role: 'user', content: 'check failed: hello.md missing' }])).toEqual({
      text: expect.stringContaining('cannot do more'),
    });
  });

  it('says in advance which gate will answer hop 2', () => {
    const open = { entitled: true, enabled: true, allowlisted: true, per_hop_approval: true, stop_all: false };
    expect(expectation(open)).toMatch(/HELD: an Orchestration card/);
    expect(expectation(open)).not.toMatch(/Needs attention/);
    expect(expectation({ ...open, enabled: false })).toMatch(/orchestration_disabled/);
    expect(expectation({ ...open, allowlisted: false })).toMatch(/orchestrator_not_allowed/);
    expect(expectation({ ...open, stop_all: true })).toMatch(/orchestration_stopped/);
    expect(expectation({ ...open, per_hop_approval: false })).toMatch(/allowed by orchestration/);
  });
});
