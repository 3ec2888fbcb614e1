// The `path` of a rule and the text found there (seed 000, "The rule grammar"). Pure.
//
// A path is dotted keys into tool_input: `command`, `edits.0.path`. An object is walked by key (own keys only:
// `constructor` or `__proto__` never reach the prototype), an array by integer index (canonical decimal: `0`,
// `12`; not `01`, `-1`, `length`), anything else walks nowhere.
//
// The TEXT at a path (what `match` reads, and what "present without match" requires):
//   - a string, as is (the empty string is text: it is a string);
//   - an array of scalars joined by ONE space: ["rm", "-rf", "/"] reads `rm -rf /`. Scalars are JSON's: a
//     string as is, a finite number in its JSON form, true/false, and null as `null`. An empty array reads as
//     the empty text. One element that is not a scalar (an object, a nested array) and the array has no text;
//   - anything else — absent, an object, a number alone, a boolean alone, null alone — has no text, so the rule
//     does not match (and under bypass a non-match is a grant).

/** Splits a rule's path once, at compile time. Validation has already refused empty segments. */
export const splitPath = (path: string): string[] => path.split('.');

/** A canonical array index, or -1. */
function indexOf(segment: string): number {
  const n = segment.length;
  if (n === 0 || n > 15) return -1;
  if (n > 1 && segment.charCodeAt(0) === 0x30) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = segment.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** The value at a pre-split path, or undefined when the path walks nowhere. */
export function walkPath(input: unknown, segments: readonly string[]): unknown {
  let cur = input;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (Array.isArray(cur)) {
      const idx = indexOf(seg);
      if (idx < 0 || idx >= cur.length || !Object.hasOwn(cur, idx)) return undefined;
      cur = cur[idx];
    } else if (typeof cur === 'object' && cur !== null) {
      if (!Object.hasOwn(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    } else return undefined;
  }
  return cur;
}

function scalarText(v: unknown): string | null {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return Number.isFinite(v) ? String(v) : null;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return v === null ? 'null' : null;
    default:
      return null;
  }
}

/** The text at a value found by a path, per the rule above; null when there is none. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return null;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const t = Object.hasOwn(value, i) ? scalarText(value[i]) : null;
    if (t === null) return null;
    out = i === 0 ? t : `${out} ${t}`;
  }
  return out;
}

/** The text at a dotted path of an input (`edits.0.path`), or null. */
export const textAtPath = (input: unknown, path: string): string | null => textOf(walkPath(input, splitPath(path)));
