// Import cycles are checked here, with madge's API over the same folders as `npx madge --circular` (.madgerc):
// a cycle makes load order decide what a module sees, and it hides which layer really depends on which.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface MadgeResult {
  obj(): Record<string, string[]>;
  circular(): string[][];
}
type MadgeConfig = { baseDir: string; fileExtensions: string[]; detectiveOptions?: Record<string, { skipTypeImports: boolean }> };
// madge ships CommonJS without types: the one call used here is typed by hand.
const madge = createRequire(import.meta.url)('madge') as (paths: string[], config: MadgeConfig) => Promise<MadgeResult>;

const root = join(import.meta.dirname, '..', '..');
const FOLDERS = ['electron', 'shared', 'renderer', 'test'];
/** Type-only imports vanish when compiled, so at run time only value imports can form a cycle. */
const RUNTIME = { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } };

const graph = (baseDir: string, paths: string[], runtimeOnly: boolean) =>
  madge(
    paths.map((p) => join(baseDir, p)),
    { baseDir, fileExtensions: ['ts', 'tsx'], ...(runtimeOnly ? { detectiveOptions: RUNTIME } : {}) },
  );
const cycles = async (baseDir: string, paths: string[], runtimeOnly: boolean) => (await graph(baseDir, paths, runtimeOnly)).circular();

describe('import cycles', () => {
  it('finds a runtime cycle and ignores a type-only one (the check can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nexus-cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
      writeFileSync(join(dir, 'b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
      writeFileSync(join(dir, 'c.ts'), "import type { D } from './d.js';\nexport const c = (d: D) => d;\n");
      writeFileSync(join(dir, 'd.ts'), "import { c } from './c.js';\nexport type D = number;\nexport const d = c;\n");
      expect(await cycles(dir, ['.'], true)).toEqual([['a.ts', 'b.ts']]);
      expect((await cycles(dir, ['.'], false)).length).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the sources have no runtime import cycle', async () => {
    const g = await graph(root, FOLDERS, true);
    // The graph really was read (a resolver that found nothing would find no cycle either).
    expect(g.obj()['electron/kernel/kernel.ts']).toContain('electron/kernel/stage.ts');
    expect(g.circular()).toEqual([]);
  }, 120_000);

  it('counting type imports too, the sources have no import cycle', async () => {
    expect(await cycles(root, FOLDERS, false)).toEqual([]);
  }, 120_000);
});
