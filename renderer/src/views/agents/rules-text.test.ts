import { describe, it, expect } from 'vitest';
import { parseRulesText, locateIssue, ruleStartLine, matchedLine, oversizeIssues } from './rules-text.js';

describe('rules editor text', () => {
  it('locates a JSON syntax error by line and column', () => {
    const r = parseRulesText('[\n  {"tool": "bash",, "verdict": "allow"}\n]');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.line).toBe(2);
    expect(parseRulesText('   ')).toEqual({ ok: true, value: [] });
  });

  it('names the rule (index and position) and key of an issue, without repeating the validator prefix', () => {
    expect(locateIssue({ index: 1, key: 'verdict', message: 'rule 1: verdict must be allow, ask or deny (got "maybe")' })).toBe(
      'rule 1 (the 2nd), key "verdict": verdict must be allow, ask or deny (got "maybe")',
    );
    expect(locateIssue({ index: null, message: 'rules must be a JSON array' })).toBe('The list: rules must be a JSON array');
    expect(locateIssue({ index: 10, message: 'x' })).toBe('rule 10 (the 11th): x');
  });

  it('names rules the same way in errors, warnings and the tester (was: "rule 1 (the 2nd)", "rule 0: rule 0:", "matched rules 2, 4")', () => {
    // A lint warning whose message already carries the prefix twice names the rule once.
    expect(locateIssue({ index: 0, message: 'rule 0: rule 0: allow "ls*" on bash command also allows …' })).toBe(
      'rule 0 (the 1st): allow "ls*" on bash command also allows …',
    );
    expect(matchedLine([1, 3])).toBe('matched rule 1 (the 2nd), rule 3 (the 4th)');
    expect(matchedLine([0])).toBe('matched rule 0 (the 1st)');
    expect(matchedLine([])).toBe('no rule matched');
  });

  it('judges a list over the 64 KiB envelope locally (a megabyte paste dropped the connection)', () => {
    const huge = Array.from({ length: 12_000 }, (_, i) => ({ tool: 'bash', path: 'command', match: `echo ${'y'.repeat(80)}${i}`, verdict: 'allow' }));
    const issues = oversizeIssues(huge)!;
    expect(issues[0]).toMatchObject({
      index: null,
      message: expect.stringMatching(/^approval rules are \d+ bytes as JSON; the limit is 65536 bytes \(64 KiB\)/),
    });
    expect(oversizeIssues([{ tool: 'bash', verdict: 'allow' }])).toBeNull();
  });

  it('finds the line where rule N starts, ignoring braces inside strings', () => {
    const text = '[\n  {"tool": "a{b"},\n  {\n    "tool": "c"\n  }\n]';
    expect(ruleStartLine(text, 0)).toBe(2);
    expect(ruleStartLine(text, 1)).toBe(3);
    expect(ruleStartLine(text, 2)).toBeNull();
  });
});
