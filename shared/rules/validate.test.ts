// Validation at declaration (seed 000: "a seventh key, a missing tool, a verdict outside the three, an origin
// outside the three, a match without a path, an empty path segment, a glob that does not compile — under the
// 64 KiB envelope bound and with no length limits"). One test per error, and all errors are collected.
import { describe, expect, it } from 'vitest';
import { compileRules, RulesInvalidError, validateRules } from './index.js';

const errorsOf = (value: unknown) => {
  const r = validateRules(value);
  return r.ok ? [] : r.errors;
};

describe('validateRules', () => {
  it("accepts the seed's example list and returns clean copies", () => {
    const seed = [
      {
        tool: 'bash|start_process',
        path: 'command',
        match: '*git push*--force*',
        verdict: 'deny',
        reason: 'force push rewrites history others may hold; a person can run it',
      },
      { tool: 'write|edit', path: 'path', match: '*.env', verdict: 'deny' },
      { tool: 'memory_*|ask|delegate_task|code|skill', verdict: 'allow' },
      { tool: 'bash|start_process', path: 'command', match: 'ls*', verdict: 'allow' },
      { tool: 'bash', verdict: 'ask', origin: 'author' },
    ];
    const r = validateRules(seed);
    expect(r).toEqual({ ok: true, rules: seed });
    expect(r.ok && r.rules[0]).not.toBe(seed[0]);
  });

  it('accepts the empty list', () => {
    expect(validateRules([])).toEqual({ ok: true, rules: [] });
  });

  it('the list must be a JSON array', () => {
    for (const v of [{}, 'x', 1, null, undefined, true]) {
      expect(errorsOf(v)).toEqual([{ index: null, message: expect.stringContaining('must be a JSON array') }]);
    }
  });

  it('each rule must be an object', () => {
    expect(errorsOf([1, 'bash', null, []])).toEqual(
      [0, 1, 2, 3].map((index) => ({ index, message: expect.stringMatching(new RegExp(`^rule ${index}: must be an object`)) })),
    );
  });

  it('a seventh key is refused (an unknown key, named, with a suggestion when close)', () => {
    const e = errorsOf([{ tool: 'bash', verdict: 'deny', path: 'command', match: 'x', reason: 'r', origin: 'model', comment: 'hi' }]);
    expect(e).toEqual([{ index: 0, key: 'comment', message: expect.stringContaining('unknown key "comment"') }]);
    expect(errorsOf([{ tool: 'bash', verdict: 'deny', Verdict: 'x' }])[0].message).toContain('did you mean "verdict"?');
  });

  it('a missing tool is refused', () => {
    expect(errorsOf([{ verdict: 'deny' }])).toEqual([{ index: 0, key: 'tool', message: expect.stringContaining('tool is required') }]);
  });

  it('a missing verdict is refused', () => {
    expect(errorsOf([{ tool: 'bash' }])).toEqual([{ index: 0, key: 'verdict', message: 'rule 0: verdict is required: allow, ask or deny' }]);
  });

  it('a verdict outside allow | ask | deny is refused', () => {
    expect(
      errorsOf([
        { tool: 'read', verdict: 'allow' },
        { tool: 'read', verdict: 'allow' },
        { tool: 'bash', verdict: 'permit' },
      ]),
    ).toEqual([{ index: 2, key: 'verdict', message: 'rule 2: verdict must be allow, ask or deny (got "permit")' }]);
    expect(errorsOf([{ tool: 'bash', verdict: 'Deny' }])).toHaveLength(1);
  });

  it('an origin outside model | author | kernel is refused', () => {
    expect(errorsOf([{ tool: 'bash', verdict: 'ask', origin: 'human' }])).toEqual([
      { index: 0, key: 'origin', message: 'rule 0: origin must be model, author or kernel (got "human")' },
    ]);
  });

  it('a match without a path is refused', () => {
    expect(errorsOf([{ tool: 'bash', verdict: 'deny', match: 'rm*' }])).toEqual([
      { index: 0, key: 'match', message: expect.stringContaining('match needs a path') },
    ]);
  });

  it('an empty path segment is refused: "a..b", ".a", "a.", and ""', () => {
    for (const path of ['a..b', '.a', 'a.', '.', ''])
      expect(errorsOf([{ tool: 'bash', verdict: 'deny', path }])).toEqual([{ index: 0, key: 'path', message: expect.stringMatching(/path/) }]);
    expect(errorsOf([{ tool: 'bash', verdict: 'deny', path: 'edits.0.path' }])).toEqual([]);
  });

  it('a glob that does not compile is refused: an empty tool alternative', () => {
    for (const tool of ['bash||x', '|bash', 'bash|', '|', ''])
      expect(errorsOf([{ tool, verdict: 'deny' }])).toEqual([{ index: 0, key: 'tool', message: expect.any(String) }]);
  });

  it('a glob that does not compile is refused: a lone surrogate has no UTF-8 bytes', () => {
    expect(errorsOf([{ tool: 'bash\ud800', verdict: 'deny' }])).toEqual([{ index: 0, key: 'tool', message: expect.stringContaining('surrogate') }]);
    expect(errorsOf([{ tool: 'bash', path: 'command', match: '\udc00*', verdict: 'deny' }])).toEqual([
      { index: 0, key: 'match', message: expect.stringContaining('surrogate') },
    ]);
    expect(errorsOf([{ tool: 'bash', path: 'command', match: '😀*', verdict: 'deny' }])).toEqual([]);
  });

  it('wrong types are refused, naming what was given', () => {
    const e = errorsOf([{ tool: 5, verdict: ['deny'], path: {}, match: null, reason: 1, origin: false }]);
    expect(e.map((x) => x.key)).toEqual(['tool', 'verdict', 'path', 'match', 'reason', 'origin']);
    expect(e[0].message).toBe('rule 0: tool must be a string (got 5)');
    expect(e[3].message).toBe('rule 0: match must be a string (got null)');
  });

  it('the 64 KiB envelope: the list as JSON over 65,536 UTF-8 bytes is refused', () => {
    const rule = (reason: string) => [{ tool: 'bash', verdict: 'deny', reason }];
    const overhead = JSON.stringify(rule('')).length;
    expect(validateRules(rule('x'.repeat(65536 - overhead))).ok).toBe(true);
    expect(errorsOf(rule('x'.repeat(65537 - overhead)))).toEqual([{ index: null, message: expect.stringContaining('65537 bytes') }]);
    // Bytes, not characters: é is 2 bytes.
    expect(validateRules(rule('é'.repeat(Math.ceil((65537 - overhead) / 2)))).ok).toBe(false);
  });

  it('no length limits below the envelope: a 60 KB match, a 1,000-alternative tool, 2,000 rules', () => {
    expect(validateRules([{ tool: 'bash', path: 'command', match: 'a'.repeat(60_000), verdict: 'deny' }]).ok).toBe(true);
    expect(validateRules([{ tool: Array.from({ length: 1000 }, (_, i) => `t${i}`).join('|'), verdict: 'allow' }]).ok).toBe(true);
    expect(validateRules(Array.from({ length: 2000 }, () => ({ tool: 'x', verdict: 'ask' }))).ok).toBe(true);
  });

  it('collects ALL errors, across keys and rules, each naming its rule', () => {
    const e = errorsOf([
      { tool: 'a||b', verdict: 'permit', path: 'a..b', extra: 1 },
      { tool: 'ok', verdict: 'allow' },
      { match: 'x', origin: 'x' },
    ]);
    expect(e.map((x) => [x.index, x.key])).toEqual([
      [0, 'extra'],
      [0, 'tool'],
      [0, 'verdict'],
      [0, 'path'],
      [2, 'tool'],
      [2, 'verdict'],
      [2, 'match'],
      [2, 'origin'],
    ]);
    for (const x of e) expect(x.message.startsWith(`rule ${x.index}: `)).toBe(true);
  });

  it('a value that is not plain JSON (a cycle) is refused, not thrown', () => {
    const a: unknown[] = [];
    a.push(a);
    expect(validateRules(a).ok).toBe(false);
    expect(validateRules([{ tool: 'bash', verdict: 'deny', reason: 10n }]).ok).toBe(false);
  });

  it('compileRules refuses an invalid list at declaration with RulesInvalidError', () => {
    expect(() => compileRules([{ tool: 'bash', verdict: 'permit' } as never])).toThrow(RulesInvalidError);
  });
});
