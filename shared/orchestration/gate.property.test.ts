// Properties of the pure gate over random settings, entitlements and hops (fast-check).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decideHop, type GateEntitlement, type GateSettings } from './gate.js';
import type { HopFacts } from './chain.js';
import { canonicalJson } from './canonical.js';
import { ORCHESTRATION_CODES } from '../types.js';

const names = fc.constantFrom('lead', 'mid', 'leaf', 'extra', 'x');
const settings = fc.record({
  'orchestration.enabled': fc.boolean(),
  'orchestration.maxDepth': fc.integer({ min: 1, max: 6 }),
  'orchestration.maxAgents': fc.integer({ min: 1, max: 6 }),
  'orchestration.allowlist': fc.uniqueArray(names, { maxLength: 5 }),
  'orchestration.stopAll': fc.boolean(),
}) as fc.Arbitrary<GateSettings>;
const entitlement = fc.constantFrom<GateEntitlement>(
  { entitled: true, status: 'valid' },
  { entitled: false, status: 'absent' },
  { entitled: false, status: 'expired' },
  { entitled: false, status: 'missing_ent' },
);
const hop = fc.record({
  chain_id: fc.constant('chain_p'),
  hop: fc.integer({ min: 2, max: 50 }),
  depth: fc.integer({ min: 1, max: 8 }),
  agents: fc.integer({ min: 1, max: 8 }),
  orchestrators: fc.array(names, { maxLength: 4 }),
}) as fc.Arbitrary<HopFacts>;

/** The table, read literally: the list of conditions that fail, in table order. */
function failing(s: GateSettings, e: GateEntitlement, h: HopFacts): string[] {
  const out: string[] = [];
  if (s['orchestration.stopAll']) out.push('orchestration_stopped');
  if (!e.entitled) out.push('orchestration_not_entitled');
  if (!s['orchestration.enabled']) out.push('orchestration_disabled');
  if (h.orchestrators.some((o) => !s['orchestration.allowlist'].includes(o))) out.push('orchestrator_not_allowed');
  if (h.depth > s['orchestration.maxDepth']) out.push('chain_depth_exceeded');
  if (h.agents > s['orchestration.maxAgents']) out.push('chain_agents_exceeded');
  return out;
}

describe('gate properties', () => {
  it('the first failing condition in table order answers; none failing → allowed', () => {
    fc.assert(
      fc.property(settings, entitlement, hop, (s, e, h) => {
        const d = decideHop(s, e, h);
        const f = failing(s, e, h);
        if (!f.length) return d.allowed === true;
        return !d.allowed && d.denial.code === f[0] && d.denial.retryable === (f[0] === 'chain_depth_exceeded' || f[0] === 'chain_agents_exceeded');
      }),
      { numRuns: 2000 },
    );
  });
  it('every denial names a code of the six, the chain and the hop', () => {
    fc.assert(
      fc.property(settings, entitlement, hop, (s, e, h) => {
        const d = decideHop(s, e, h);
        return (
          d.allowed ||
          ((ORCHESTRATION_CODES as readonly string[]).includes(d.denial.code) &&
            d.denial.chain_id === h.chain_id &&
            d.denial.hop === h.hop &&
            d.denial.text.length > 20)
        );
      }),
    );
  });
  it('canonical JSON ignores key order and round-trips to an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const shuffled = JSON.parse(JSON.stringify(v), function (this: unknown, _k, val) {
          if (val && typeof val === 'object' && !Array.isArray(val)) return Object.fromEntries(Object.entries(val).reverse());
          return val;
        });
        const c = canonicalJson(v);
        expect(canonicalJson(shuffled)).toBe(c);
        expect(JSON.parse(c)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});
