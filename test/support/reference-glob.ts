// For tests only: the obvious O(n·m) glob matcher over UTF-8 bytes, the definition the fast one must agree with.
import { utf8 } from '../../shared/rules/utf8.js';

export function referenceGlob(pattern: string, text: string): boolean {
  const p = utf8(pattern);
  const t = utf8(text);
  let prev = new Array<boolean>(t.length + 1).fill(false);
  prev[0] = true;
  for (let i = 1; i <= p.length; i++) {
    const cur = new Array<boolean>(t.length + 1).fill(false);
    if (p[i - 1] === 0x2a) {
      cur[0] = prev[0];
      for (let j = 1; j <= t.length; j++) cur[j] = prev[j] || cur[j - 1];
    } else {
      for (let j = 1; j <= t.length; j++) cur[j] = prev[j - 1] && (p[i - 1] === 0x3f || p[i - 1] === t[j - 1]);
    }
    prev = cur;
  }
  return prev[t.length];
}
