// The gate table of DESIGN §3, one test per row, plus the seed's sentences about the gate and precedence.
import { describe, expect, it } from 'vitest';
import { decideHop, denialResult, type GateEntitlement, type GateSettings } from './gate.js';
import { hopFacts, recipientPosition, starterPosition, type HopFacts } from './chain.js';
import { DEFAULT_SETTINGS, ORCHESTRATION_CODES } from '../types.js';

const OPEN: GateSettings = {
  'orchestration.enabled': true,
  'orchestration.maxDepth': 3,
  'orchestration.maxAgents': 4,
  'orchestration.allowlist': ['lead', 'mid'],
  'orchestration.stopAll': false,
};
const ENTITLED: GateEntitlement = { entitled: true, status: 'valid' };
const hop = (over: Partial<HopFacts> = {}): HopFacts => ({ chain_id: 'chain_x', hop: 2, depth: 2, agents: 2, orchestrators: ['lead'], ...over });

const code = (s: GateSettings, e: GateEntitlement, h: HopFacts) => {
  const d = decideHop(s, e, h);
  return d.allowed ? 'allowed' : d.denial.code;
};

describe('gate table (DESIGN §3)', () => {
  it('row 1: Stop all is in effect → orchestration_stopped, not retryable', () => {
    const d = decideHop({ ...OPEN, 'orchestration.stopAll': true }, ENTITLED, hop());
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.denial.code).toBe('orchestration_stopped');
    expect(d.denial.retryable).toBe(false);
    expect(d.denial.text).toMatch(/Stop all/);
    expect(d.denial.text).toMatch(/Resume/);
  });
  it('row 2: entitlement nexus.orchestration absent → orchestration_not_entitled, not retryable', () => {
    for (const status of ['absent', 'expired', 'invalid', 'missing_ent'] as const) {
      const d = decideHop(OPEN, { entitled: false, status }, hop());
      expect(d.allowed).toBe(false);
      if (d.allowed) return;
      expect(d.denial.code).toBe('orchestration_not_entitled');
      expect(d.denial.retryable).toBe(false);
      expect(d.denial.text).toMatch(/nexus entitlements import/);
    }
  });
  it('row 3: local setting Cross-Agent Orchestration off → orchestration_disabled, not retryable', () => {
    const d = decideHop({ ...OPEN, 'orchestration.enabled': false }, ENTITLED, hop());
    expect(!d.allowed && d.denial.code).toBe('orchestration_disabled');
    expect(!d.allowed && d.denial.retryable).toBe(false);
    expect(!d.allowed && d.denial.setting).toBe('orchestration.enabled');
  });
  it('row 4: an orchestrator is not on the allowlist → orchestrator_not_allowed, not retryable', () => {
    const d = decideHop(OPEN, ENTITLED, hop({ orchestrators: ['lead', 'rogue'] }));
    expect(!d.allowed && d.denial.code).toBe('orchestrator_not_allowed');
    expect(!d.allowed && d.denial.retryable).toBe(false);
    expect(!d.allowed && d.denial.text).toContain('"rogue"');
  });
  it('row 5: depth > Maximum chain depth → chain_depth_exceeded, retryable', () => {
    const d = decideHop(OPEN, ENTITLED, hop({ depth: 4 }));
    expect(!d.allowed && d.denial.code).toBe('chain_depth_exceeded');
    expect(!d.allowed && d.denial.retryable).toBe(true);
    expect(!d.allowed && d.denial.text).toBe(
      'Chain depth limit reached: this hop would run at depth 4 and the limit is 3. Raise Maximum chain depth in Settings ▸ Agents ▸ Orchestration, or wait for the run in progress to finish.',
    );
    expect(code(OPEN, ENTITLED, hop({ depth: 3 }))).toBe('allowed');
  });
  it('row 6: agents > Maximum agents per chain → chain_agents_exceeded, retryable', () => {
    const d = decideHop(OPEN, ENTITLED, hop({ agents: 5 }));
    expect(!d.allowed && d.denial.code).toBe('chain_agents_exceeded');
    expect(!d.allowed && d.denial.retryable).toBe(true);
    expect(!d.allowed && d.denial.text).toMatch(/5 distinct agents and the limit is 4/);
    expect(code(OPEN, ENTITLED, hop({ agents: 4 }))).toBe('allowed');
  });
  it('a hop passing every check is allowed', () => {
    expect(decideHop(OPEN, ENTITLED, hop())).toEqual({ allowed: true });
  });
});

describe('precedence: when several fail at once, the first in table order answers', () => {
  const all: GateSettings = {
    'orchestration.enabled': false,
    'orchestration.maxDepth': 1,
    'orchestration.maxAgents': 1,
    'orchestration.allowlist': [],
    'orchestration.stopAll': true,
  };
  const none: GateEntitlement = { entitled: false, status: 'absent' };
  const h = hop({ depth: 9, agents: 9, orchestrators: ['x'] });
  it('every condition failing → orchestration_stopped', () => expect(code(all, none, h)).toBe('orchestration_stopped'));
  it('all but Stop all → orchestration_not_entitled', () =>
    expect(code({ ...all, 'orchestration.stopAll': false }, none, h)).toBe('orchestration_not_entitled'));
  it('entitled, setting off, the rest failing → orchestration_disabled', () =>
    expect(code({ ...all, 'orchestration.stopAll': false }, ENTITLED, h)).toBe('orchestration_disabled'));
  it('enabled, allowlist and limits failing → orchestrator_not_allowed', () =>
    expect(code({ ...all, 'orchestration.stopAll': false, 'orchestration.enabled': true }, ENTITLED, h)).toBe('orchestrator_not_allowed'));
  it('allowed orchestrators, both limits failing → chain_depth_exceeded', () =>
    expect(code({ ...all, 'orchestration.stopAll': false, 'orchestration.enabled': true, 'orchestration.allowlist': ['x'] }, ENTITLED, h)).toBe(
      'chain_depth_exceeded',
    ));
  it('every pair of failing conditions answers with the earlier one', () => {
    const fails: Array<[string, (s: GateSettings, e: GateEntitlement, h: HopFacts) => [GateSettings, GateEntitlement, HopFacts]]> = [
      ['orchestration_stopped', (s, e, x) => [{ ...s, 'orchestration.stopAll': true }, e, x]],
      ['orchestration_not_entitled', (s, _e, x) => [s, { entitled: false, status: 'absent' }, x]],
      ['orchestration_disabled', (s, e, x) => [{ ...s, 'orchestration.enabled': false }, e, x]],
      ['orchestrator_not_allowed', (s, e, x) => [{ ...s, 'orchestration.allowlist': [] }, e, x]],
      ['chain_depth_exceeded', (s, e, x) => [s, e, { ...x, depth: 99 }]],
      ['chain_agents_exceeded', (s, e, x) => [s, e, { ...x, agents: 99 }]],
    ];
    expect(fails.map((f) => f[0])).toEqual([...ORCHESTRATION_CODES]);
    for (let i = 0; i < fails.length; i++) {
      for (let j = i + 1; j < fails.length; j++) {
        const [s1, e1, h1] = fails[i][1](OPEN, ENTITLED, hop());
        const [s2, e2, h2] = fails[j][1](s1, e1, h1);
        expect(code(s2, e2, h2)).toBe(fails[i][0]);
      }
    }
  });
});

describe('defaults (DESIGN §3): off, absent, depth 3, agents 4, allowlist empty, per-hop approval on, Stop all off', () => {
  it('the default settings deny a governed hop: not entitled first, then disabled, then the empty allowlist', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      'orchestration.enabled': false,
      'orchestration.maxDepth': 3,
      'orchestration.maxAgents': 4,
      'orchestration.allowlist': [],
      'orchestration.perHopApproval': true,
      'orchestration.stopAll': false,
    });
    expect(code(DEFAULT_SETTINGS, { entitled: false, status: 'absent' }, hop())).toBe('orchestration_not_entitled');
    expect(code(DEFAULT_SETTINGS, ENTITLED, hop())).toBe('orchestration_disabled');
    expect(code({ ...DEFAULT_SETTINGS, 'orchestration.enabled': true }, ENTITLED, hop())).toBe('orchestrator_not_allowed');
  });
});

describe('seed 003 sentences', () => {
  it('"Either one being closed is enough to block every chain": entitlement without the setting, or the setting without the entitlement', () => {
    expect(code({ ...OPEN, 'orchestration.enabled': false }, ENTITLED, hop())).toBe('orchestration_disabled');
    expect(code(OPEN, { entitled: false, status: 'absent' }, hop())).toBe('orchestration_not_entitled');
  });
  it('"An empty allowlist by default means nothing can orchestrate until it\'s explicitly added"', () => {
    expect(code({ ...OPEN, 'orchestration.allowlist': [] }, ENTITLED, hop({ orchestrators: ['lead'] }))).toBe('orchestrator_not_allowed');
  });
  it('"Depth and breadth limits bound the worst case of a runaway chain even when everything else is configured to allow it"', () => {
    expect(code({ ...OPEN, 'orchestration.allowlist': ['a', 'b', 'c', 'd'] }, ENTITLED, hop({ depth: 4, orchestrators: ['a', 'b', 'c'] }))).toBe(
      'chain_depth_exceeded',
    );
  });
  it('"Collapsing all six into one generic denied would leave the person guessing": six distinct codes, sentences and settings', () => {
    const cases: Array<[GateSettings, GateEntitlement, HopFacts]> = [
      [{ ...OPEN, 'orchestration.stopAll': true }, ENTITLED, hop()],
      [OPEN, { entitled: false, status: 'absent' }, hop()],
      [{ ...OPEN, 'orchestration.enabled': false }, ENTITLED, hop()],
      [OPEN, ENTITLED, hop({ orchestrators: ['nobody'] })],
      [OPEN, ENTITLED, hop({ depth: 4 })],
      [OPEN, ENTITLED, hop({ agents: 5 })],
    ];
    const denials = cases.map(([s, e, h]) => {
      const d = decideHop(s, e, h);
      if (d.allowed) throw new Error('expected a denial');
      return d.denial;
    });
    expect(denials.map((d) => d.code)).toEqual([...ORCHESTRATION_CODES]);
    expect(new Set(denials.map((d) => d.text)).size).toBe(6);
    expect(new Set(denials.map((d) => d.setting)).size).toBe(6);
    for (const d of denials) expect(d.text.split(/(?<=\.)\s+(?=[A-Z])/).length).toBeLessThanOrEqual(3);
  });
  it('"A denied call answers with the reason in two forms at once": a sentence and a stable machine-readable code', () => {
    const d = decideHop(OPEN, ENTITLED, hop({ depth: 4, hop: 5, chain_id: 'chain_abc' }));
    if (d.allowed) throw new Error('expected a denial');
    const r = denialResult(d.denial);
    expect(r.isError).toBe(true);
    expect(r.content).toHaveLength(1);
    expect(r.content[0].text).toMatch(/^Chain depth limit reached/);
    expect(r.structuredContent).toMatchObject({
      code: 'chain_depth_exceeded',
      retryable: true,
      reason: expect.any(String),
      setting: 'orchestration.maxDepth',
      chain_id: 'chain_abc',
      hop: 5,
    });
  });
  it('"Only two of the six can change without a person acting": only depth and breadth are retryable', () => {
    const retryable = ORCHESTRATION_CODES.filter((c) => {
      const cases: Record<string, [GateSettings, GateEntitlement, HopFacts]> = {
        orchestration_stopped: [{ ...OPEN, 'orchestration.stopAll': true }, ENTITLED, hop()],
        orchestration_not_entitled: [OPEN, { entitled: false, status: 'expired' }, hop()],
        orchestration_disabled: [{ ...OPEN, 'orchestration.enabled': false }, ENTITLED, hop()],
        orchestrator_not_allowed: [OPEN, ENTITLED, hop({ orchestrators: ['z'] })],
        chain_depth_exceeded: [OPEN, ENTITLED, hop({ depth: 9 })],
        chain_agents_exceeded: [OPEN, ENTITLED, hop({ agents: 9 })],
      };
      const d = decideHop(...cases[c]);
      return !d.allowed && d.denial.retryable;
    });
    expect(retryable).toEqual(['chain_depth_exceeded', 'chain_agents_exceeded']);
  });
});

describe('chain arithmetic (DESIGN §3 Depth, Agents, Orchestrators)', () => {
  const lead = starterPosition('lead');
  const mid = recipientPosition(lead, 'mid');
  const leaf = recipientPosition(mid, 'leaf');
  it('the starter is at depth 1; an agent handed work by one at depth d is at d + 1', () => {
    expect([lead.depth, mid.depth, leaf.depth]).toEqual([1, 2, 3]);
  });
  it("a hop's depth is the recipient's for a hand-off, else the actor's", () => {
    const chain = { chain_id: 'c', touched: ['lead', 'mid'] };
    expect(hopFacts(chain, 2, mid).depth).toBe(2);
    expect(hopFacts(chain, 2, mid, 'leaf').depth).toBe(3);
  });
  it('agents = distinct agents the chain has touched, recipients included', () => {
    const chain = { chain_id: 'c', touched: ['lead', 'mid'] };
    expect(hopFacts(chain, 2, mid).agents).toBe(2);
    expect(hopFacts(chain, 2, mid, 'leaf').agents).toBe(3);
    expect(hopFacts(chain, 2, mid, 'lead').agents).toBe(2);
  });
  it('orchestrators = the agents that handed work down the path to the agent who will act', () => {
    const chain = { chain_id: 'c', touched: ['lead', 'mid', 'leaf'] };
    expect(hopFacts(chain, 3, mid).orchestrators).toEqual(['lead']);
    expect(hopFacts(chain, 3, mid, 'leaf').orchestrators).toEqual(['lead', 'mid']);
    expect(hopFacts(chain, 3, leaf).orchestrators).toEqual(['lead', 'mid']);
  });
});
