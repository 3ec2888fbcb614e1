// The zod-free list of method names is made from the method table: a method added to a schema module without
// regenerating the list would be missing from every client (preload, web bridge, CLI).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from './index.js';
import { METHOD_NAMES } from './method-names.js';
import { methodNamesSource } from './method-names-source.js';

describe('METHOD_NAMES', () => {
  it('is Object.keys(methods), in order, without duplicates', () => {
    expect([...METHOD_NAMES]).toEqual(Object.keys(methods));
    expect(new Set(METHOD_NAMES).size).toBe(METHOD_NAMES.length);
  });

  it('method-names.ts is exactly what the contract makes (else run: npx tsx scripts/method-names.ts)', () => {
    expect(readFileSync(join(import.meta.dirname, 'method-names.ts'), 'utf8')).toBe(methodNamesSource());
  });
});
