import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time: one syscall per 512 ids instead of one per id (hot path).
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** A random id with a readable prefix: `run_…`, `row_…` (64 random bits; collisions are not a concern). */
export function newId(prefix: string): string {
  if (offset + 8 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + 8);
  offset += 8;
  return `${prefix}_${hex}`;
}
