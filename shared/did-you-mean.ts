// The nearest known name to a misspelt one, for "did you mean approval_rules?" in the messages that refuse an
// unknown key or tool. Pure.
import { editDistance } from './rules/validate.js';

/** The known name closest to `word` (case-insensitive), within a third of its length in edits; null when none is. */
export function didYouMean(word: string, known: readonly string[]): string | null {
  if (word.length > 64) return null;
  const lower = word.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestD = limit + 1;
  for (const k of known) {
    const d = k.toLowerCase() === lower ? 0 : editDistance(lower, k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

/** `unknown key "aproval_rules"; did you mean approval_rules?` or, with no near name, the known keys. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = didYouMean(key, known);
  if (near) return `unknown key ${JSON.stringify(key)}; did you mean ${near}?`;
  return known.length
    ? `unknown key ${JSON.stringify(key)}; the keys here are ${known.join(', ')}`
    : `unknown key ${JSON.stringify(key)}; nothing is expected here`;
}
