// The byte helpers the glob and the reason cut rely on.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cutUtf8, encodeUtf8Into, hasLoneSurrogate, utf8, utf8Length } from './utf8.js';

describe('utf8 helpers', () => {
  it('encodeUtf8Into writes exactly what TextEncoder writes, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const buf = new Uint8Array(s.length * 3);
        const n = encodeUtf8Into(s, buf);
        expect(buf.subarray(0, n)).toEqual(utf8(s));
        expect(utf8Length(s)).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });
  it('hasLoneSurrogate finds unpaired halves only', () => {
    expect(hasLoneSurrogate('😀')).toBe(false);
    expect(hasLoneSurrogate('a\ud83d')).toBe(true);
    expect(hasLoneSurrogate('\ude00a')).toBe(true);
  });
  it('cutUtf8 keeps at most N bytes and never splits a character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.nat(300), (s, max) => {
        const cut = cutUtf8(s, max);
        expect(utf8Length(cut)).toBeLessThanOrEqual(max);
        expect(s.startsWith(cut)).toBe(true);
        if (utf8Length(s) <= max) expect(cut).toBe(s);
        else expect(utf8Length(cut)).toBeGreaterThan(max - 4);
      }),
    );
  });
});
