import { randomBytes } from 'node:crypto';

/** A random id with a readable prefix: `run_…`, `row_…` (64 random bits; collisions are not a concern). */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;
