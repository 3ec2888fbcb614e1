// The glob of the rule grammar: anchored, over UTF-8 bytes, `*` and `?` only. Checked clause by clause and
// against a plain dynamic-programming reference on random patterns and texts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileGlob, globMatch, matchGlob } from './glob.js';
import { utf8 } from './utf8.js';
import { referenceGlob } from '../../test/support/reference-glob.js';

const reference = referenceGlob;

describe('glob: the rule grammar', () => {
  it('is anchored at both ends: "ls" matches ls alone', () => {
    expect(globMatch('ls', 'ls')).toBe(true);
    expect(globMatch('ls', 'ls -la')).toBe(false);
    expect(globMatch('ls', 'xls')).toBe(false);
  });

  it('a fragment needs a leading *: "git push" does not match inside a command, "*git push*" does', () => {
    expect(globMatch('git push', 'cd x && git push origin')).toBe(false);
    expect(globMatch('*git push*', 'cd x && git push origin')).toBe(true);
  });

  it('* matches anything, the empty text included', () => {
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('a*', 'a')).toBe(true);
    expect(globMatch('*a', 'ba')).toBe(true);
    expect(globMatch('a*b', 'axxxb')).toBe(true);
    expect(globMatch('a*b', 'axxxc')).toBe(false);
  });

  it('* spans newlines', () => {
    expect(globMatch('*git push*--force*', 'echo hi\ngit push origin\n  --force\n')).toBe(true);
    expect(globMatch('a*b', 'a\n\r\nb')).toBe(true);
  });

  it('? is exactly one byte', () => {
    expect(globMatch('l?', 'ls')).toBe(true);
    expect(globMatch('l?', 'l')).toBe(false);
    expect(globMatch('l?', 'lss')).toBe(false);
  });

  it('? is one BYTE: a multi-byte UTF-8 character is several bytes', () => {
    // é is 2 bytes, € 3, 😀 4.
    expect(globMatch('caf?', 'café')).toBe(false);
    expect(globMatch('caf??', 'café')).toBe(true);
    expect(globMatch('???', '€')).toBe(true);
    expect(globMatch('??', '€')).toBe(false);
    expect(globMatch('????', '😀')).toBe(true);
    expect(globMatch('x?y', 'x😀y')).toBe(false);
  });

  it('every other byte is literal: no classes, braces, escapes or regex', () => {
    expect(globMatch('[ab]', 'a')).toBe(false);
    expect(globMatch('[ab]', '[ab]')).toBe(true);
    expect(globMatch('{a,b}', '{a,b}')).toBe(true);
    expect(globMatch('{a,b}', 'a')).toBe(false);
    expect(globMatch('a\\*', 'a\\xyz')).toBe(true); // backslash is a literal byte, * still special
    expect(globMatch('a.c', 'abc')).toBe(false); // glob only, no regex
    expect(globMatch('^a+$', 'aaa')).toBe(false);
    expect(globMatch('^a+$', '^a+$')).toBe(true);
    expect(globMatch('|', '|')).toBe(true);
  });

  it('non-ASCII literals match byte for byte', () => {
    expect(globMatch('*日本*', 'x日本y')).toBe(true);
    expect(globMatch('*日本*', 'x日y本')).toBe(false);
  });

  it('the empty pattern matches only the empty text', () => {
    expect(globMatch('', '')).toBe(true);
    expect(globMatch('', 'a')).toBe(false);
  });

  it('middle segments are found in order and do not overlap the anchored ends', () => {
    expect(globMatch('ab*ba', 'aba')).toBe(false);
    expect(globMatch('ab*ba', 'abba')).toBe(true);
    expect(globMatch('*aa*aa*', 'aaa')).toBe(false);
    expect(globMatch('*aa*aa*', 'aaaa')).toBe(true);
    expect(globMatch('*a?c*a?c', 'abcxabc')).toBe(true);
    expect(globMatch('*ab?d*', 'abxabcd')).toBe(true);
  });

  it('long segments with ? (more than 32 bytes: the multi-word matcher)', () => {
    const seg = `${'x'.repeat(40)}?${'y'.repeat(30)}`;
    const hit = `${'x'.repeat(40)}Z${'y'.repeat(30)}`;
    expect(globMatch(`*${seg}*`, `aaa${'x'.repeat(50)}${hit.slice(40)}bbb`)).toBe(true);
    expect(globMatch(`*${seg}*`, `aaa${hit}bbb`)).toBe(true);
    expect(globMatch(`*${seg}*`, `aaa${hit.slice(0, -1)}bbb`)).toBe(false);
  });

  it('the pathological *a*a*a*a*a*a*b over 100 KB of a ends (linear, no backtracking)', () => {
    const g = compileGlob('*a*a*a*a*a*a*b');
    const text = utf8('a'.repeat(100_000));
    expect(matchGlob(g, text)).toBe(false);
    expect(matchGlob(compileGlob('*a*a*a*a*a*a*a?'), text)).toBe(true);
    expect(matchGlob(compileGlob(`*${'a'.repeat(300)}b*`), text)).toBe(false);
    expect(matchGlob(compileGlob(`*${'a'.repeat(300)}?b*`), text)).toBe(false);
  });

  it('agrees with a dynamic-programming reference on small alphabets (property)', () => {
    const alpha = fc.constantFrom('a', 'b', '*', '?', 'é', '\n');
    const pattern = fc.array(alpha, { maxLength: 12 }).map((a) => a.join(''));
    const text = fc.array(fc.constantFrom('a', 'b', 'é', '\n', '*', '?'), { maxLength: 20 }).map((a) => a.join(''));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(globMatch(p, t)).toBe(reference(p, t));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the reference on arbitrary strings and long ?-segments (property)', () => {
    const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 4 }), fc.constantFrom('*', '?', '?'.repeat(33), 'a'.repeat(34)));
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 6 }),
        fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 4 }), fc.constant('a'.repeat(40))), { maxLength: 6 }),
        (ps, ts) => {
          const p = ps.join('');
          const t = ts.join('');
          expect(globMatch(p, t)).toBe(reference(p, t));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('agrees with the reference on long repetitive texts (the fast search runs out of budget, KMP takes over)', () => {
    const small = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
    const text = fc.tuple(small, fc.integer({ min: 50, max: 400 }), small).map(([c, r, tail]) => c.repeat(r) + tail);
    const pattern = fc.array(fc.constantFrom('a', 'b', 'c', 'aab', 'abc', '*', '?'), { maxLength: 8 }).map((a) => a.join(''));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(globMatch(p, t)).toBe(reference(p, t));
        expect(globMatch(`*${p}*`, t)).toBe(reference(`*${p}*`, t));
      }),
      { numRuns: 600 },
    );
  });

  it('a text built from the pattern (each * filled, each ? one byte) always matches (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 5 }), (p, fill) => {
        const t = p.replaceAll('?', 'x').replaceAll('*', fill);
        expect(globMatch(p, t)).toBe(true);
      }),
    );
  });
});
