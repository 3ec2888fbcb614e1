// "Does rule A match every call rule B matches?" — conservative (a `true` is always right; a `false` may be
// a missed case), so the lint built on it never warns falsely. Pure.
import type { ApprovalRule } from '../types.js';
import { globMatch } from './glob.js';

const hasWild = (s: string) => s.includes('*') || s.includes('?');

/** Does glob `a` match every text glob `b` matches? Sufficient conditions only. */
export function globCovers(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length > 0 && /^\*+$/.test(a)) return true;
  if (!hasWild(b)) return globMatch(a, b);
  // a = P* with P literal: covers any b that starts with the literal P.
  const star = a.indexOf('*');
  if (star === a.length - 1 && !hasWild(a.slice(0, -1))) {
    const p = a.slice(0, -1);
    return b.startsWith(p) && !hasWild(b.slice(0, p.length));
  }
  // a = *S with S literal: covers any b that ends with the literal S.
  if (star === 0 && a.lastIndexOf('*') === 0 && !a.includes('?')) {
    const s = a.slice(1);
    return b.endsWith(s) && !hasWild(b.slice(b.length - s.length));
  }
  return false;
}

/** Every tool alternative of b is covered by some alternative of a. */
export function toolCovers(a: string, b: string): boolean {
  const as = a.split('|');
  return b.split('|').every((bAlt) => as.some((aAlt) => globCovers(aAlt, bAlt)));
}

/** Does rule `a` match every call rule `b` matches (same origin assumed by the caller)? */
export function ruleCovers(a: ApprovalRule, b: ApprovalRule): boolean {
  if ((a.origin ?? 'model') !== (b.origin ?? 'model')) return false;
  if (!toolCovers(a.tool, b.tool)) return false;
  if (a.path === undefined) return true;
  if (a.path !== b.path) return false;
  // Both need text at the same path; a without match asks for nothing more.
  if (a.match === undefined) return true;
  return b.match !== undefined && globCovers(a.match, b.match);
}
