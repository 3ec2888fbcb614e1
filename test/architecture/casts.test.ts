// The cast ratchet (eslint/casts.js): it counts `as T` and `x!` (not `as const`), fails a file over its
// allowance, asks for a lower allowance when a file went under it, and the allowance file matches the code.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import casts, { ALLOWANCE_FILE, countCasts } from '../../eslint/casts.js';

const root = join(import.meta.dirname, '..', '..');
const lint = (code: string, filename: string) =>
  new Linter({ configType: 'flat' }).verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { nexus: { rules: { casts } } }, rules: { 'nexus/casts': 'error' } }],
    join(root, filename),
  );

describe('the cast ratchet', () => {
  it('counts as-casts and non-null assertions, not as const', async () => {
    expect(await countCasts('const a = b as string; const c = d!; const e = [1] as const; const f = <T>g;', 'x.ts')).toBe(2);
  });

  it('fails a file with more casts than its allowance, and one the list does not name at all', () => {
    const over = lint('export const a = (b as unknown as string)!;', 'electron/nowhere/new-file.ts');
    expect(over.map((m) => m.ruleId)).toEqual(['nexus/casts']);
    expect(over[0]!.message).toContain('holds 3 casts (as / !), its allowance is 0');
    expect(lint('export const a = 1;', 'electron/nowhere/new-file.ts')).toEqual([]);
  });

  it('asks for a lower allowance when a file holds fewer casts than granted', () => {
    const allowance = JSON.parse(readFileSync(ALLOWANCE_FILE, 'utf8')) as Record<string, number>;
    const [file] = Object.keys(allowance);
    const under = lint('export const a = 1;', file!);
    expect(under[0]?.message).toContain('lower it in eslint/cast-allowance.json');
  });
});
