// Session trust with a scope (issue 23 item 4): a grant covers a whole agent or only calls like the approved
// one (Codex's per-command approval); the stage checks the scope; grants are listed and revoked one by one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import { createAgentRun, saveAgent } from '../agents/profiles.js';
import { dispatch } from '../api/dispatch.js';
import { callScope, trustCovering, type TrustGrant } from '../../shared/trust.js';
import type { AgentProfile } from '../../shared/types.js';
import { kernelMethods } from '../../shared/api/kernel.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
  probe(h.nexus);
});
afterEach(async () => h.cleanup());

const k = () => h.nexus.kernel;
const profile = (name: string): AgentProfile => ({
  name,
  model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKeyEnv: 'SOME_KEY' },
  mode: 'ask',
});
const runOf = (name: string) => {
  saveAgent(k(), profile(name));
  return createAgentRun(k(), { agent: name, prompt: 'p' });
};
const call = (name: string, input: unknown) => dispatch(h.nexus.handlers, name, input, { door: 'socket' });

describe('A trust grant scoped to calls like this one', () => {
  it('grants the same command again and parks any other command, even one that starts with it', async () => {
    const run = runOf('alice');
    const first = k().submitRow(run.id, { tool: 'probe', input: { command: 'npm test' }, origin: 'model' });
    k().approve(first.id, { by: 'person', trust_session: true, trust_scope: 'call' });
    expect(k().trust.isTrusted('alice')).toBe(false); // not the whole agent
    const again = k().submitRow(run.id, { tool: 'probe', input: { command: 'npm test' }, origin: 'model' });
    expect(again.granted_by).toBe('trust');
    const smuggled = k().submitRow(run.id, { tool: 'probe', input: { command: 'npm test && rm -rf ~' }, origin: 'model' });
    expect(smuggled.state).toBe('needs_approval');
    const other = k().submitRow(run.id, { tool: 'probe', input: { command: 'npm run build' }, origin: 'model' });
    expect(other.state).toBe('needs_approval');
    k().deny(smuggled.id, { by: 'person' });
    k().deny(other.id, { by: 'person' });
    await Promise.all([k().waitRow(first.id), k().waitRow(again.id)]);
  });

  it('covers another run of the same agent, never another agent', async () => {
    const a = runOf('alice');
    const first = k().submitRow(a.id, { tool: 'probe', input: { command: 'ls' }, origin: 'model' });
    k().approve(first.id, { by: 'person', trust_session: true, trust_scope: 'call' });
    const a2 = createAgentRun(k(), { agent: 'alice' });
    expect(k().submitRow(a2.id, { tool: 'probe', input: { command: 'ls' }, origin: 'model' }).granted_by).toBe('trust');
    const b = runOf('bob');
    const bobs = k().submitRow(b.id, { tool: 'probe', input: { command: 'ls' }, origin: 'model' });
    expect(bobs.state).toBe('needs_approval');
    k().deny(bobs.id, { by: 'person' });
    await k().waitRow(first.id);
  });

  it('is listed with its scope and end, and revoked by id alone, leaving the agent’s other grants', async () => {
    const run = runOf('alice');
    const one = k().submitRow(run.id, { tool: 'probe', input: { command: 'ls' }, origin: 'model' });
    const two = k().submitRow(run.id, { tool: 'probe', input: { command: 'pwd' }, origin: 'model' });
    expect((await call('inboxApprove', { id: one.id, trust_session: true, trust_scope: 'call' })).ok).toBe(true);
    expect((await call('inboxApprove', { id: two.id, trust_session: true, trust_scope: 'call' })).ok).toBe(true);
    const listed = await call('trustList', {});
    if (!listed.ok) throw new Error('trustList failed');
    const { grants } = kernelMethods.trustList.output.parse(listed.value);
    expect(grants.map((g) => g.covers)).toEqual(['probe calls with command "ls" exactly', 'probe calls with command "pwd" exactly']);
    expect(grants.every((g) => g.ends === 'when NEXUS quits' && g.scope.kind === 'call')).toBe(true);
    const revoked = await call('trustRevoke', { id: grants[0].id });
    expect(revoked).toEqual({ ok: true, value: { agent: 'alice', revoked: true, count: 1 } });
    const ls = k().submitRow(run.id, { tool: 'probe', input: { command: 'ls' }, origin: 'model' });
    expect(ls.state).toBe('needs_approval');
    expect(k().submitRow(run.id, { tool: 'probe', input: { command: 'pwd' }, origin: 'model' }).granted_by).toBe('trust');
    expect((await call('trustRevoke', { agent: 'alice', id: grants[1].id })).ok).toBe(false); // one or the other
    k().deny(ls.id, { by: 'person' });
    await Promise.all([k().waitRow(one.id), k().waitRow(two.id)]);
  });

  it('approving the same call twice with trust adds one grant', async () => {
    const run = runOf('alice');
    const a = k().submitRow(run.id, { tool: 'probe', input: { x: 1, y: 2 }, origin: 'model' });
    const b = k().submitRow(run.id, { tool: 'probe', input: { y: 2, x: 1 }, origin: 'model' });
    k().approve(a.id, { by: 'person', trust_session: true, trust_scope: 'call' });
    k().approve(b.id, { by: 'person', trust_session: true, trust_scope: 'call' });
    expect(k().trust.grants('alice')).toHaveLength(1);
    await Promise.all([k().waitRow(a.id), k().waitRow(b.id)]);
  });
});

describe('callScope and trustCovering (shared by the stage and the agent page’s tester)', () => {
  const grant = (scope: TrustGrant['scope']): TrustGrant => ({ id: 't', agent: 'alice', scope, granted_at: 0, by: 'p' });
  it('read a shell call by its command through the aliases, ignoring the other keys', () => {
    expect(callScope('Bash', { command: 'npm test', description: 'run the tests' })).toEqual({ kind: 'call', tool: 'bash', key: 'command', text: 'npm test' });
    expect(callScope('exec_command', { cmd: 'npm test' })).toEqual({ kind: 'call', tool: 'bash', key: 'command', text: 'npm test' });
    const g = grant(callScope('bash', { command: 'npm test' }));
    expect(trustCovering([g], 'alice', 'Bash', { command: 'npm test', description: 'again' })).toBe(g);
    expect(trustCovering([g], 'alice', 'bash', { command: 'npm test ' })).toBeUndefined();
    expect(trustCovering([g], 'bob', 'bash', { command: 'npm test' })).toBeUndefined();
    expect(trustCovering([g], null, 'bash', { command: 'npm test' })).toBeUndefined();
  });
  it('read a file tool by its path, and a whole-agent grant covers any call', () => {
    expect(callScope('Write', { file_path: '/w/a.txt', content: 'x' })).toEqual({ kind: 'call', tool: 'write', key: 'path', text: '/w/a.txt' });
    expect(trustCovering([grant({ kind: 'agent' })], 'alice', 'anything', {})?.scope.kind).toBe('agent');
  });
});
