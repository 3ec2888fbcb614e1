// The seed's mode table (seed 000, "The modes"), one test per cell, named after its row and column, and the
// origin rule ("An author or kernel row is granted by its origin under every mode, parks only on an ask rule
// naming its origin, and is refused by a deny rule naming it").
import { describe, expect, it } from 'vitest';
import type { ApprovalRule, Mode, Origin } from '../types.js';
import { compileRules, EMPTY_RULES, evaluateCall } from './index.js';

const DENY: ApprovalRule = { tool: 'bash', verdict: 'deny', reason: 'no shell for you' };
const ALLOW: ApprovalRule = { tool: 'bash', verdict: 'allow' };
const ASK: ApprovalRule = { tool: 'bash', verdict: 'ask' };
const OTHER: ApprovalRule = { tool: 'read', verdict: 'allow' }; // present, but not for bash: "unmatched"

const decide = (mode: Mode, rules: ApprovalRule[], origin: Origin = 'model') =>
  evaluateCall(rules.length ? compileRules(rules) : EMPTY_RULES, mode, { tool: 'bash', input: { command: 'ls' }, origin });

describe('mode table, model rows: bypass', () => {
  it("bypass × deny rule matches → failed approval_denied + the rule's reason", () => {
    expect(decide('bypass', [DENY])).toMatchObject({ outcome: 'failed', error: { code: 'approval_denied', detail: 'no shell for you' }, matched: [0] });
  });
  it('bypass × allow rule matches → granted, origin: mode', () => {
    expect(decide('bypass', [ALLOW])).toMatchObject({ outcome: 'granted', granted_by: 'mode', matched: [0] });
  });
  it('bypass × ask rule matches → granted, origin: mode', () => {
    expect(decide('bypass', [ASK])).toMatchObject({ outcome: 'granted', granted_by: 'mode', matched: [0] });
  });
  it('bypass × unmatched → granted, origin: mode', () => {
    expect(decide('bypass', [OTHER])).toMatchObject({ outcome: 'granted', granted_by: 'mode', matched: [] });
    expect(decide('bypass', [])).toMatchObject({ outcome: 'granted', granted_by: 'mode', matched: [] });
  });
});

describe('mode table, model rows: ask', () => {
  it('ask × deny rule matches → failed approval_denied', () => {
    expect(decide('ask', [DENY])).toMatchObject({ outcome: 'failed', error: { code: 'approval_denied', detail: 'no shell for you' } });
  });
  it('ask × allow rule matches → granted, origin: rule', () => {
    expect(decide('ask', [ALLOW])).toMatchObject({ outcome: 'granted', granted_by: 'rule', matched: [0] });
  });
  it('ask × ask rule matches → PARKS', () => {
    expect(decide('ask', [ASK])).toMatchObject({ outcome: 'parked', matched: [0] });
  });
  it('ask × unmatched → PARKS', () => {
    expect(decide('ask', [OTHER])).toMatchObject({ outcome: 'parked', matched: [] });
    expect(decide('ask', [])).toMatchObject({ outcome: 'parked', matched: [] });
  });
});

describe('mode table, model rows: rules', () => {
  it('rules × deny rule matches → failed approval_denied', () => {
    expect(decide('rules', [DENY])).toMatchObject({ outcome: 'failed', error: { code: 'approval_denied', detail: 'no shell for you' } });
  });
  it('rules × allow rule matches → granted, origin: rule', () => {
    expect(decide('rules', [ALLOW])).toMatchObject({ outcome: 'granted', granted_by: 'rule', matched: [0] });
  });
  it('rules × ask rule matches → PARKS', () => {
    expect(decide('rules', [ASK])).toMatchObject({ outcome: 'parked', matched: [0] });
  });
  it('rules × unmatched → failed approval_denied — "no approval rule allows NAME"', () => {
    expect(decide('rules', [OTHER])).toEqual({
      outcome: 'failed',
      error: { code: 'approval_denied', detail: 'no approval rule allows bash' },
      tool: 'bash',
      matched: [],
      runner: null,
    });
  });
  it('rules × unmatched names the RESOLVED tool (a typo is a refusal the model reads)', () => {
    const d = evaluateCall(EMPTY_RULES, 'rules', { tool: 'Bash', input: {}, origin: 'model' });
    expect(d).toMatchObject({ outcome: 'failed', error: { detail: 'no approval rule allows bash' } });
    expect(evaluateCall(EMPTY_RULES, 'rules', { tool: 'bsah', input: {}, origin: 'model' })).toMatchObject({
      outcome: 'failed',
      error: { detail: 'no approval rule allows bsah' },
    });
  });
  it('rules × {"tool": "*", "verdict": "allow"} last is the explicit "unmatched allow"', () => {
    const c = compileRules([
      { tool: 'bash', verdict: 'deny' },
      { tool: '*', verdict: 'allow' },
    ]);
    expect(evaluateCall(c, 'rules', { tool: 'anything_at_all', input: {}, origin: 'model' })).toMatchObject({ outcome: 'granted', granted_by: 'rule' });
    expect(evaluateCall(c, 'rules', { tool: 'bash', input: {}, origin: 'model' })).toMatchObject({ outcome: 'failed' });
  });
});

for (const origin of ['author', 'kernel'] as const) {
  describe(`origin rule: ${origin} rows`, () => {
    for (const mode of ['bypass', 'ask', 'rules'] as const) {
      it(`${origin} × ${mode} × unmatched → granted, origin: origin`, () => {
        expect(decide(mode, [], origin)).toMatchObject({ outcome: 'granted', granted_by: 'origin', matched: [] });
      });
      it(`${origin} × ${mode} × model-addressed deny/ask/allow → granted, origin: origin (rules default to model rows)`, () => {
        for (const r of [DENY, ASK, ALLOW]) expect(decide(mode, [r], origin)).toMatchObject({ outcome: 'granted', granted_by: 'origin', matched: [] });
      });
      it(`${origin} × ${mode} × ask rule naming ${origin} → PARKS`, () => {
        expect(decide(mode, [{ ...ASK, origin }], origin)).toMatchObject({ outcome: 'parked', matched: [0] });
      });
      it(`${origin} × ${mode} × deny rule naming ${origin} → failed approval_denied`, () => {
        expect(decide(mode, [{ ...DENY, origin }], origin)).toMatchObject({
          outcome: 'failed',
          error: { code: 'approval_denied', detail: 'no shell for you' },
          matched: [0],
        });
      });
      it(`${origin} × ${mode} × allow rule naming ${origin} → still granted, origin: origin (listed in matched)`, () => {
        expect(decide(mode, [{ ...ALLOW, origin }], origin)).toMatchObject({ outcome: 'granted', granted_by: 'origin', matched: [0] });
      });
      it(`${origin} × ${mode} × deny and ask naming ${origin} → deny wins`, () => {
        expect(
          decide(
            mode,
            [
              { ...ASK, origin },
              { ...DENY, origin },
            ],
            origin,
          ),
        ).toMatchObject({ outcome: 'failed', matched: [0, 1] });
      });
    }
  });
}

describe('origin rule: a rule naming another origin never touches a model row', () => {
  it('an author-addressed deny does not refuse a model row', () => {
    expect(decide('bypass', [{ ...DENY, origin: 'author' }])).toMatchObject({ outcome: 'granted', granted_by: 'mode', matched: [] });
  });
  it('a kernel-addressed allow does not grant a model row in rules mode', () => {
    expect(decide('rules', [{ ...ALLOW, origin: 'kernel' }])).toMatchObject({ outcome: 'failed', error: { detail: 'no approval rule allows bash' } });
  });
  it('origin defaults to model: a rule without origin addresses model rows', () => {
    expect(decide('rules', [ALLOW])).toMatchObject({ outcome: 'granted', granted_by: 'rule' });
    expect(decide('rules', [{ ...ALLOW, origin: 'model' }])).toMatchObject({ outcome: 'granted', granted_by: 'rule' });
  });
});
