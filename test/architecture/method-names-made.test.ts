// shared/api/method-names.ts is made from the contract (shared/api/method-names-source.ts), never edited by hand.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methodNamesSource } from '../../shared/api/method-names-source.js';

describe('shared/api/method-names.ts', () => {
  it('is exactly what the contract makes (else run: npx tsx scripts/method-names.ts)', () => {
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'shared', 'api', 'method-names.ts'), 'utf8')).toBe(methodNamesSource());
  });
});
