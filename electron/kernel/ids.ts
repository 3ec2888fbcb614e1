import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time: one syscall per 512 ids instead of one per id (hot path).
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * A time-ordered random id with a readable prefix (`run_…`, `row_…`): 48 bits of milliseconds, then 64 random
 * bits (like a ULID). Time first keeps the primary-key index append-mostly, so a commit dirties a few index
 * pages instead of one random page per row.
 */
export function newId(prefix: string): string {
  if (offset + 8 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + 8);
  offset += 8;
  return `${prefix}_${Date.now().toString(16).padStart(12, '0')}${hex}`;
}
