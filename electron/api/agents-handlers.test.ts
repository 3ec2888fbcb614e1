// Create and replace are separate methods: agentsCreate never overwrites an agent, agentsReplace never makes
// one; agentsSave (the `nexus agents add` contract) still does either and says which. Through dispatch, on a
// real kernel over a fresh SQLite store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, record, type Harness } from '../../test/support/kernel.js';
import { dispatch } from './dispatch.js';
import type { NexusEvent } from '../../shared/api/index.js';

let h: Harness;
let events: NexusEvent[];
beforeEach(async () => {
  h = await harness();
  events = record(h.nexus);
});
afterEach(async () => h.cleanup());

const api = (name: string, input: unknown) => dispatch(h.nexus.handlers, name, input, { door: 'internal' });
const profile = (extra: Record<string, unknown> = {}) => ({
  name: 'scribe',
  model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm1' },
  mode: 'ask',
  instructions: 'the original instructions',
  approval_rules: [{ tool: 'read', verdict: 'allow' }],
  ...extra,
});
const stored = async () => {
  const r = await api('agentsGet', { name: 'scribe' });
  return r.ok ? (r.value as { model: { model: string }; instructions?: string; mode: string; approval_rules: unknown[] }) : null;
};
const changes = () => events.filter((e) => e.type === 'agents_changed').length;

describe('agentsCreate', () => {
  it('creates a new agent and answers it with the rule warnings', async () => {
    const r = await api(
      'agentsCreate',
      profile({
        approval_rules: [
          { tool: 'read', verdict: 'allow' },
          { tool: 'read', verdict: 'allow' },
        ],
      }),
    );
    expect(r).toMatchObject({ ok: true, value: { agent: { name: 'scribe', status: 'active', mode: 'ask' } } });
    expect(r.ok && (r.value as { warnings: unknown[] }).warnings.length).toBeGreaterThan(0);
    expect(r.ok && r.value).not.toHaveProperty('replaced');
    expect((await stored())?.instructions).toBe('the original instructions');
  });

  it('refuses a name an active agent has (conflict), and changes nothing: model, rules, instructions, no event', async () => {
    expect((await api('agentsCreate', profile())).ok).toBe(true);
    const before = changes();
    const r = await api(
      'agentsCreate',
      profile({ model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'other' }, instructions: 'a blank form', approval_rules: [] }),
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!r.ok && r.error.message).toMatch(/An agent named scribe already exists: nothing was changed/);
    expect(await stored()).toMatchObject({
      model: { model: 'm1' },
      instructions: 'the original instructions',
      approval_rules: [{ tool: 'read', verdict: 'allow' }],
    });
    expect(changes()).toBe(before);
  });

  it("a removed agent's name may be created again", async () => {
    await api('agentsCreate', profile());
    expect((await api('agentsRemove', { name: 'scribe' })).ok).toBe(true);
    const r = await api('agentsCreate', profile({ instructions: 'fresh' }));
    expect(r).toMatchObject({ ok: true, value: { agent: { name: 'scribe', status: 'active', instructions: 'fresh' } } });
  });

  it('validates like every save: a bad profile is invalid_input and stores nothing', async () => {
    expect(await api('agentsCreate', profile({ workspace: 'relative/dir' }))).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await api('agentsCreate', profile({ name: '../x' }))).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await api('agentsList', {})).toEqual({ ok: true, value: [] });
  });
});

describe('agentsReplace', () => {
  it('replaces an active agent', async () => {
    await api('agentsCreate', profile());
    const r = await api('agentsReplace', profile({ mode: 'rules', instructions: 'edited' }));
    expect(r).toMatchObject({ ok: true, value: { agent: { name: 'scribe', mode: 'rules', instructions: 'edited' }, warnings: [] } });
    expect(await stored()).toMatchObject({ mode: 'rules', instructions: 'edited' });
  });

  it('refuses a name no agent has (not_found), and creates nothing', async () => {
    const r = await api('agentsReplace', profile());
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(!r.ok && r.error.message).toMatch(/No agent named scribe: nothing was saved/);
    expect(await api('agentsList', {})).toEqual({ ok: true, value: [] });
    expect(changes()).toBe(0);
  });

  it('a removed agent is not there to replace: it stays removed', async () => {
    await api('agentsCreate', profile());
    await api('agentsRemove', { name: 'scribe' });
    expect(await api('agentsReplace', profile({ instructions: 'revived?' }))).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await api('agentsGet', { name: 'scribe' })).toMatchObject({ ok: true, value: { status: 'removed' } });
  });
});

describe('agentsSave (create or replace, as `nexus agents add`)', () => {
  it('creates, then replaces, saying which', async () => {
    expect(await api('agentsSave', profile())).toMatchObject({ ok: true, value: { replaced: false } });
    expect(await api('agentsSave', profile({ instructions: 'again' }))).toMatchObject({
      ok: true,
      value: { replaced: true, agent: { instructions: 'again' } },
    });
  });
});
