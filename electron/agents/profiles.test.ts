// Agent profiles and the approval a run-backed run freezes: the profile's, tightened never loosened.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../../test/support/kernel.js';
import { createAgentRun, MODE_STRICTNESS, saveAgent, stricterMode, tightenApproval } from './profiles.js';
import type { AgentProfile } from '../../shared/types.js';

let h: Harness;
beforeEach(async () => (h = await harness()));
afterEach(async () => h.cleanup());

const profile = (extra: Partial<AgentProfile> & Record<string, unknown> = {}): AgentProfile => ({
  name: 'alice',
  model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'claude' },
  mode: 'ask',
  ...extra,
});

describe('agentsSave', () => {
  it('validates rules: located errors refuse the save (invalid_rules)', () => {
    try {
      saveAgent(
        h.nexus.kernel,
        profile({
          approval_rules: [
            { tool: 'bash', verdict: 'allow' },
            { tool: 'bash', verdict: 'perhaps' },
          ] as never,
        }),
      );
      expect.unreachable();
    } catch (e) {
      expect((e as { code: string }).code).toBe('invalid_rules');
      expect((e as { details: { path: string }[] }).details[0].path).toBe('approval_rules.1.verdict');
    }
    expect(h.nexus.kernel.inbox.pending()).toEqual([]);
  });
  it('returns lint warnings and stores the profile', () => {
    const out = saveAgent(
      h.nexus.kernel,
      profile({
        approval_rules: [
          { tool: '*', verdict: 'allow' },
          { tool: 'bash', verdict: 'deny' },
        ],
      }),
    );
    expect(out.agent).toMatchObject({ name: 'alice', status: 'active', mode: 'ask' });
    expect(Array.isArray(out.warnings)).toBe(true);
  });
  it('validates lifecycle hooks', () => {
    expect(() => saveAgent(h.nexus.kernel, profile({ lifecycle_hooks: { on_lunch: [] } as never }))).toThrow(/unknown event/);
    expect(saveAgent(h.nexus.kernel, profile({ lifecycle_hooks: { stop: [{ tool: 'bash', input: { command: 'true' } }] } })).agent.lifecycle_hooks).toEqual({
      stop: [{ tool: 'bash', input: { command: 'true' } }],
    });
  });
});

describe('tightened, never loosened', () => {
  it('strictness order is bypass < ask < rules', () => {
    expect(MODE_STRICTNESS.bypass).toBeLessThan(MODE_STRICTNESS.ask);
    expect(MODE_STRICTNESS.ask).toBeLessThan(MODE_STRICTNESS.rules);
    expect(stricterMode('ask', 'rules')).toBe('rules');
    expect(stricterMode('rules', 'bypass')).toBe('rules');
    expect(stricterMode('ask', 'bypass')).toBe('ask');
  });
  it('a stricter requested mode tightens; a looser one is refused: a run can only tighten its profile', () => {
    expect(tightenApproval({ mode: 'bypass' }, { mode: 'rules' }).mode).toBe('rules');
    expect(() => tightenApproval({ name: 'a', mode: 'rules' }, { mode: 'bypass' })).toThrow(
      "A run can only tighten its profile: agent a's profile mode is rules; --mode bypass would loosen it.",
    );
  });
  it('extra rules may only add deny/ask rules; an allow is refused with its index', () => {
    const t = tightenApproval({ mode: 'bypass', approval_rules: [{ tool: 'read', verdict: 'allow' }] }, { extra_rules: [{ tool: 'bash', verdict: 'deny' }] });
    expect(t.rules).toEqual([
      { tool: 'read', verdict: 'allow' },
      { tool: 'bash', verdict: 'deny' },
    ]);
    expect(() =>
      tightenApproval(
        { mode: 'bypass' },
        {
          extra_rules: [
            { tool: 'bash', verdict: 'ask' },
            { tool: '*', verdict: 'allow' },
          ],
        },
      ),
    ).toThrow(/only add deny or ask/);
  });
  it("a run freezes the profile's mode, rules and hooks at creation; later profile edits do not reach it", () => {
    saveAgent(
      h.nexus.kernel,
      profile({ mode: 'ask', approval_rules: [{ tool: 'read', verdict: 'allow' }], lifecycle_hooks: { turn_start: [{ tool: 'list', input: {} }] } }),
    );
    const run = createAgentRun(h.nexus.kernel, { agent: 'alice', request: { mode: 'rules', extra_rules: [{ tool: 'bash', verdict: 'deny' }] } });
    saveAgent(h.nexus.kernel, profile({ mode: 'bypass', approval_rules: [] }));
    const frozen = h.nexus.kernel.getRun(run.id)!;
    expect(frozen.mode).toBe('rules');
    expect(frozen.rules).toEqual([
      { tool: 'read', verdict: 'allow' },
      { tool: 'bash', verdict: 'deny' },
    ]);
    expect(frozen.hooks).toEqual({ turn_start: [{ tool: 'list', input: {} }] });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'write', input: { path: 'x', content: '' }, origin: 'model' });
    expect(row.error?.detail).toBe('no approval rule allows write');
  });
});

describe('agentsRemove', () => {
  it("closes the agent's cards the stop path does not reach (an attention card on an ended run); other agents' stay", async () => {
    const { removeAgent } = await import('./profiles.js');
    saveAgent(h.nexus.kernel, profile());
    saveAgent(h.nexus.kernel, profile({ name: 'bob' }));
    const run = createAgentRun(h.nexus.kernel, { agent: 'alice' });
    const other = createAgentRun(h.nexus.kernel, { agent: 'bob' });
    h.nexus.kernel.stopRun(run.id, { reason: 'ended before the removal' });
    h.nexus.kernel.inbox.add({ id: 'att_alice', kind: 'attention', run_id: run.id, agent: 'alice', tool: 'bash', target: 'a failed hook' });
    h.nexus.kernel.inbox.add({ id: 'att_bob', kind: 'attention', run_id: other.id, agent: 'bob', tool: 'bash', target: 'a failed hook' });
    removeAgent(h.nexus.kernel, 'alice');
    for (let i = 0; i < 50 && h.nexus.kernel.inbox.get('att_alice')?.status === 'pending'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(h.nexus.kernel.inbox.get('att_alice')).toMatchObject({ status: 'canceled' });
    expect(h.nexus.kernel.inbox.pending().map((i) => i.id)).toEqual(['att_bob']);
  });
});
