// The rule language's glob (seed 000, "The rule grammar"): ANCHORED, over UTF-8 BYTES. Only `*` (any run of
// bytes, newlines included) and `?` (exactly one byte) are special; every other byte is literal: no escapes,
// no classes, no braces. A multi-byte character is several bytes, so `?` never matches one whole.
//
// Linear time, no backtracking: the pattern is split on `*` into segments. The first segment is anchored at
// the start, the last at the end, and the middle ones are found leftmost, in order, in what lies between
// (leftmost-greedy is exact for `*`-separated segments). A segment without `?` is found with KMP; one with `?`
// with bit-parallel shift-and. So `*a*a*a*a*a*a*b` over 100 KB of `a` is one pass, not 100 K^6 tries.
import { utf8 } from './utf8.js';

const STAR = 0x2a;
const QMARK = 0x3f;

interface Segment {
  readonly bytes: Uint8Array;
  readonly hasQ: boolean;
  /** KMP failure table, for segments without `?`. */
  readonly fail: Int32Array | null;
  /** Shift-and masks, for segments with `?`: 256 rows of `words` 32-bit words. */
  readonly masks: Uint32Array | null;
  readonly words: number;
  /** For segments without `?`: the index of its likely-rarest byte, the one the fast search scans for. */
  readonly anchor: number;
}

/** How common a byte is in commands and paths (higher: more common). A guess, used only to pick a scan anchor. */
function commonness(b: number): number {
  if (b === 0x20) return 10;
  if (b >= 0x61 && b <= 0x7a) return 'etaoinsr'.includes(String.fromCharCode(b)) ? 8 : 6;
  if (b === 0x2d || b === 0x2f || b === 0x2e || b === 0x5f || b === 0x3d) return 6;
  if (b >= 0x30 && b <= 0x39) return 5;
  if (b >= 0x41 && b <= 0x5a) return 4;
  if (b < 0x80) return 3;
  return 2;
}

export interface CompiledGlob {
  readonly source: string;
  /** No `*` at all: the text must be exactly `first` (with `?` as one byte). */
  readonly exact: boolean;
  readonly first: Segment;
  readonly middles: readonly Segment[];
  readonly last: Segment;
  /** The fewest bytes a matching text has. */
  readonly minLength: number;
  /** True for a pattern made of `*` alone: matches any text without looking at it. */
  readonly any: boolean;
  /** Every literal byte of the pattern as a 256-bit set (8 words): a text lacking one cannot match. */
  readonly required: Uint32Array;
}

/** The 256-bit set of the bytes in text[0, n), into `set` at word offset `at` (8 words). */
export function byteSet(text: Uint8Array, n: number, set: Uint32Array, at = 0): void {
  for (let w = 0; w < 8; w++) set[at + w] = 0;
  for (let i = 0; i < n; i++) set[at + (text[i] >>> 5)] |= 1 << (text[i] & 31);
}

/** Could a text with this byte set match? False when the glob needs a byte the text lacks. */
export function mayMatch(g: CompiledGlob, set: Uint32Array, at = 0): boolean {
  const r = g.required;
  for (let w = 0; w < 8; w++) if ((r[w] & ~set[at + w]) !== 0) return false;
  return true;
}

function segment(bytes: Uint8Array): Segment {
  const hasQ = bytes.includes(QMARK);
  if (!hasQ) {
    const fail = new Int32Array(bytes.length);
    for (let i = 1, k = 0; i < bytes.length; i++) {
      while (k > 0 && bytes[i] !== bytes[k]) k = fail[k - 1];
      if (bytes[i] === bytes[k]) k++;
      fail[i] = k;
    }
    let anchor = 0;
    for (let i = 1; i < bytes.length; i++) if (commonness(bytes[i]) < commonness(bytes[anchor])) anchor = i;
    return { bytes, hasQ, fail, masks: null, words: 0, anchor };
  }
  const words = Math.max(1, Math.ceil(bytes.length / 32));
  const masks = new Uint32Array(256 * words);
  for (let i = 0; i < bytes.length; i++) {
    const w = i >>> 5;
    const bit = 1 << (i & 31);
    if (bytes[i] === QMARK) for (let c = 0; c < 256; c++) masks[c * words + w] |= bit;
    else masks[bytes[i] * words + w] |= bit;
  }
  return { bytes, hasQ, fail: null, masks, words, anchor: 0 };
}

/** Compiles a pattern once; match it any number of times with `matchGlob`. Every string compiles. */
export function compileGlob(pattern: string): CompiledGlob {
  const bytes = utf8(pattern);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === STAR) {
      pieces.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  const exact = pieces.length === 1;
  const first = segment(pieces[0]);
  const last = exact ? first : segment(pieces[pieces.length - 1]);
  // Empty middles (from `**`) constrain nothing.
  const middles = exact
    ? []
    : pieces
        .slice(1, -1)
        .filter((p) => p.length > 0)
        .map(segment);
  let minLength = first.bytes.length + (exact ? 0 : last.bytes.length);
  for (const m of middles) minLength += m.bytes.length;
  const required = new Uint32Array(8);
  for (const b of bytes) if (b !== STAR && b !== QMARK) required[b >>> 5] |= 1 << (b & 31);
  return { source: pattern, exact, first, middles, last, minLength, any: !exact && minLength === 0, required };
}

function equalAt(seg: Segment, text: Uint8Array, at: number): boolean {
  const p = seg.bytes;
  if (!seg.hasQ) {
    for (let i = 0; i < p.length; i++) if (text[at + i] !== p[i]) return false;
    return true;
  }
  for (let i = 0; i < p.length; i++) if (p[i] !== QMARK && text[at + i] !== p[i]) return false;
  return true;
}

/** Leftmost start of `seg` in text[from, end), or -1. */
function find(seg: Segment, text: Uint8Array, from: number, end: number): number {
  const p = seg.bytes;
  const m = p.length;
  if (end - from < m) return -1;
  if (seg.fail) {
    // Fast path: jump between occurrences of the segment's rarest byte (a native scan on long spans) and compare
    // in place. It is quadratic on adversarial texts, so it has a work budget; past it, KMP takes over from the
    // current start (every earlier start has been ruled out), which keeps the whole search linear.
    const a = seg.anchor;
    const key = p[a];
    const last = end - m; // the last possible start
    // Each candidate costs a scan step plus its compare: charge 8 + compared bytes against a quarter of the span.
    let budget = ((end - from) >> 2) + 64;
    let at = from;
    for (;;) {
      let k = at + a;
      const lastKey = last + a;
      if (lastKey - k < 48) {
        while (k <= lastKey && text[k] !== key) k++;
      } else k = text.indexOf(key, k);
      if (k < 0 || k > lastKey) return -1;
      at = k - a;
      let j = 0;
      while (j < m && text[at + j] === p[j]) j++;
      if (j === m) return at;
      budget -= j + 8;
      if (budget < 0) break;
      at++;
    }
    const fail = seg.fail;
    for (let i = at, k = 0; i < end; i++) {
      const c = text[i];
      while (k > 0 && c !== p[k]) k = fail[k - 1];
      if (c === p[k]) k++;
      if (k === m) return i - m + 1;
    }
    return -1;
  }
  const masks = seg.masks!;
  const words = seg.words;
  const topWord = (m - 1) >>> 5;
  const topBit = 1 << ((m - 1) & 31);
  if (words === 1) {
    let d = 0;
    for (let i = from; i < end; i++) {
      d = ((d << 1) | 1) & masks[text[i]];
      if (d & topBit) return i - m + 1;
    }
    return -1;
  }
  const state = new Uint32Array(words);
  for (let i = from; i < end; i++) {
    const row = text[i] * words;
    let carry = 1;
    for (let w = 0; w < words; w++) {
      const d = state[w];
      state[w] = ((d << 1) | carry) & masks[row + w];
      carry = d >>> 31;
    }
    if (state[topWord] & topBit) return i - m + 1;
  }
  return -1;
}

/**
 * Does the whole text (UTF-8 bytes) match the compiled glob? Linear in the text. `n` is the text's length
 * in `text` (a reused scratch buffer may be longer); it defaults to the whole array.
 */
export function matchGlob(g: CompiledGlob, text: Uint8Array, n: number = text.length): boolean {
  if (g.exact) return n === g.first.bytes.length && equalAt(g.first, text, 0);
  if (g.any) return true;
  if (n < g.minLength) return false;
  if (!equalAt(g.first, text, 0)) return false;
  const lastLen = g.last.bytes.length;
  if (!equalAt(g.last, text, n - lastLen)) return false;
  let pos = g.first.bytes.length;
  const end = n - lastLen;
  for (const seg of g.middles) {
    const at = find(seg, text, pos, end);
    if (at < 0) return false;
    pos = at + seg.bytes.length;
  }
  return true;
}

/** Convenience for one-off use (tests, the CLI): compiles and encodes each time. Hot paths compile once. */
export const globMatch = (pattern: string, text: string): boolean => matchGlob(compileGlob(pattern), utf8(text));
