// Issue 25.4: under bypass an ask rule grants (the seed's table, kept); the linter says so when it knows the mode.
import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOWN_TOOLS, lintRules } from './lint.js';
import { checkReport } from './reports.js';
import { validateRules } from './validate.js';
import { compileRules } from './compile.js';
import { evaluateCall } from './evaluate.js';

const rules = [
  { tool: 'bash', path: 'command', match: 'rm *', verdict: 'ask' as const },
  { tool: 'bash', path: 'command', match: 'curl *', verdict: 'deny' as const },
];

describe('an ask rule under bypass', () => {
  it('still grants, as the seed says', () => {
    const d = evaluateCall(compileRules(rules), 'bypass', { tool: 'bash', input: { command: 'rm -rf x' }, origin: 'model' });
    expect(d.outcome).toBe('granted');
  });

  it('is named by the linter under bypass, with what to write instead', () => {
    expect(lintRules(rules, DEFAULT_KNOWN_TOOLS, 'bypass')).toEqual([
      { index: 0, kind: 'bypass_ask', message: 'rule 0: under bypass, ask rules grant; use deny, or mode ask.' },
    ]);
  });

  it('is not named under ask or rules, or when the mode is not known', () => {
    expect(lintRules(rules, DEFAULT_KNOWN_TOOLS, 'ask')).toEqual([]);
    expect(lintRules(rules, DEFAULT_KNOWN_TOOLS, 'rules')).toEqual([]);
    expect(lintRules(rules)).toEqual([]);
  });

  it('reaches rulesCheck reports given the mode', () => {
    expect(checkReport(validateRules(rules), 'bypass').warnings.map((w) => w.kind)).toEqual(['bypass_ask']);
  });
});
