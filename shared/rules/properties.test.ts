// Properties over random rule lists and calls (fast-check): totality, and the safety laws of the table.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ApprovalRule, Mode, Origin } from '../types.js';
import { compileRules, evaluateCall, lintRules, validateRules } from './index.js';
import { referenceGlob } from '../../test/support/reference-glob.js';

const mode = fc.constantFrom<Mode>('bypass', 'ask', 'rules');
const origin = fc.constantFrom<Origin>('model', 'author', 'kernel');
const toolAlt = fc.constantFrom('bash', 'read', 'write', 'edit', '*', 'b*', 'memory_*', '?ead', 'start_process', 'x');
const rule: fc.Arbitrary<ApprovalRule> = fc
  .record(
    {
      tool: fc.array(toolAlt, { minLength: 1, maxLength: 3 }).map((a) => a.join('|')),
      verdict: fc.constantFrom('allow', 'ask', 'deny' as const),
      path: fc.constantFrom('command', 'path', 'edits.0.path', 'a.b'),
      match: fc.constantFrom('*', 'ls*', '*rm*', '*.env', '?s', '', 'ls'),
      reason: fc.string({ maxLength: 20 }),
      origin,
    },
    { requiredKeys: ['tool', 'verdict'] },
  )
  .map((r) => {
    const out = { ...r } as ApprovalRule;
    if (out.path === undefined) delete out.match;
    return out;
  });
const rules = fc.array(rule, { maxLength: 8 });
const wire = fc.constantFrom('bash', 'Bash', 'read', 'Write', 'edit', 'memory_save', 'bash__0123456789ab', 'shell', 'zzz', 'start_process', '');
const text = fc.oneof(fc.constantFrom('ls', 'ls -la', 'rm -rf /', 'a/.env', 'ls; rm -rf ~', 'é'), fc.string({ maxLength: 10 }));
const input = fc.oneof(
  fc.record({ command: fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer()) }, { requiredKeys: [] }),
  fc.record({ path: text, file_path: text }, { requiredKeys: [] }),
  fc.record({ edits: fc.array(fc.record({ path: text }), { maxLength: 2 }), a: fc.record({ b: text }) }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const call = fc.record({ tool: wire, input, origin });
const outcomeOf = (rs: ApprovalRule[], m: Mode, c: { tool: string; input: unknown; origin: Origin }) => evaluateCall(compileRules(rs), m, c);

describe('properties', () => {
  it('validateRules never throws on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => void validateRules(v)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.constantFrom('tool', 'verdict', 'path', 'match', 'reason', 'origin', 'x'), fc.jsonValue())),
        (v) => void validateRules(v),
      ),
    );
  });

  it('validateRules never throws on anything at all', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
          withNullPrototype: true,
          withObjectString: true,
        }),
        (v) => void validateRules(v),
      ),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.array(fc.anything({ withNullPrototype: true, withBigInt: true })), (v) => void validateRules(v)));
  });

  it('whatever validateRules accepts compiles, and lints without throwing', () => {
    fc.assert(
      fc.property(rules, (rs) => {
        const v = validateRules(rs);
        expect(v.ok).toBe(true);
        if (v.ok) {
          compileRules(v.rules);
          lintRules(v.rules);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('evaluateCall never throws on any JSON input, wire name, mode or origin', () => {
    fc.assert(
      fc.property(
        rules,
        fc.oneof(mode, fc.jsonValue()),
        fc.oneof(wire, fc.string()),
        fc.anything({ withNullPrototype: true, withBigInt: true, withSparseArray: true }),
        fc.oneof(origin, fc.jsonValue()),
        (rs, m, t, i, o) => {
          const d = evaluateCall(compileRules(rs), m as Mode, { tool: t, input: i, origin: o as Origin });
          expect(['granted', 'parked', 'failed']).toContain(d.outcome);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('adding a deny rule never turns a refusal into a grant, nor a park into a grant', () => {
    fc.assert(
      fc.property(rules, rule, fc.nat(), mode, call, (rs, extra, at, m, c) => {
        const deny: ApprovalRule = { ...extra, verdict: 'deny' };
        const pos = at % (rs.length + 1);
        const before = outcomeOf(rs, m, c).outcome;
        const after = outcomeOf([...rs.slice(0, pos), deny, ...rs.slice(pos)], m, c).outcome;
        if (before === 'failed') expect(after).toBe('failed');
        if (before === 'parked') expect(after).not.toBe('granted');
      }),
      { numRuns: 2000 },
    );
  });

  it("a rule naming another origin never changes a model row's outcome", () => {
    fc.assert(
      fc.property(rules, rule, fc.constantFrom<Origin>('author', 'kernel'), fc.nat(), mode, call, (rs, extra, other, at, m, c) => {
        const pos = at % (rs.length + 1);
        const modelCall = { ...c, origin: 'model' as const };
        const before = outcomeOf(rs, m, modelCall);
        const after = outcomeOf([...rs.slice(0, pos), { ...extra, origin: other }, ...rs.slice(pos)], m, modelCall);
        // Indexes shift when a rule is inserted before others: compare the decision, not the numbering.
        const strip = (d: typeof before) => JSON.parse(JSON.stringify({ ...d, matched: d.matched.length }).replace(/approval rule \d+ /, 'approval rule N '));
        expect(strip(after)).toEqual(strip(before));
      }),
      { numRuns: 2000 },
    );
  });

  it("matched lists exactly the rules of the call's origin that match, in order, each once", () => {
    fc.assert(
      fc.property(rules, mode, call, (rs, m, c) => {
        const d = outcomeOf(rs, m, c);
        expect([...d.matched].sort((a, b) => a - b)).toEqual(d.matched);
        expect(new Set(d.matched).size).toBe(d.matched.length);
        for (const i of d.matched) expect(rs[i].origin ?? 'model').toBe(c.origin);
      }),
    );
  });

  it('a match decided by evaluateCall (buffers, byte-set prefilter, long texts) agrees with the reference glob', () => {
    const chunk = fc.oneof(fc.constantFrom('a', 'b', 'é', '\n', ';', 'ab'), fc.string({ unit: 'grapheme', maxLength: 3 }));
    const pattern = fc.array(fc.oneof(chunk, fc.constantFrom('*', '?')), { maxLength: 8 }).map((a) => a.join(''));
    const texts = fc.array(
      fc.oneof(
        fc.array(chunk, { maxLength: 10 }).map((a) => a.join('')),
        fc.constant('ab'.repeat(700)),
      ),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(pattern, texts, (p, ts) => {
        const c = compileRules([{ tool: 't', path: 'c', match: p, verdict: 'deny' }]);
        // Several calls in a row on the same compiled list: the reused buffers must never leak between calls.
        for (const t of ts) {
          const denied = evaluateCall(c, 'bypass', { tool: 't', input: { c: t }, origin: 'model' }).outcome === 'failed';
          expect(denied).toBe(referenceGlob(p, t));
        }
      }),
      { numRuns: 1500 },
    );
  });
});
