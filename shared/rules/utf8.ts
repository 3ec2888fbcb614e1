// UTF-8 helpers for the rule language. The glob works on bytes, reasons are cut in bytes. Pure.

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** The UTF-8 bytes of a string (one shared encoder: constructing one per call costs more than encoding). */
export const utf8 = (s: string): Uint8Array => encoder.encode(s);

/**
 * Writes the UTF-8 form of `s` into `buf` (which must hold 3 bytes per UTF-16 unit) and returns the byte count.
 * For short texts on the hot path: TextEncoder.encode allocates, encodeInto writes into the reused buffer (and
 * is native: several times faster than a charCodeAt loop). Lone surrogates are written as U+FFFD.
 */
export function encodeUtf8Into(s: string, buf: Uint8Array): number {
  return encoder.encodeInto(s, buf).written;
}

/** UTF-8 byte length without allocating. Lone surrogates count 3 bytes, as TextEncoder writes U+FFFD for them. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** True when the string holds a lone UTF-16 surrogate: it has no UTF-8 form (the encoder would replace it). */
export function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return true;
  }
  return false;
}

/** The first `max` bytes of a string's UTF-8 form, cut back to a character boundary so no character is split. */
export function cutUtf8(s: string, max: number): string {
  if (utf8Length(s) <= max) return s;
  const bytes = encoder.encode(s);
  let end = max;
  // A continuation byte (10xxxxxx) at the cut means the character started before it: back up to its lead byte.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end));
}
