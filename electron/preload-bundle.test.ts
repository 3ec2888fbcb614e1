// The preload's bundle holds the typed client and nothing heavy: no npm package (zod stayed out, since the
// method names come without their schemas), and `electron` the only import left for the sandboxed preload to
// require. Built here as scripts/build.mjs builds it; the control, shared/api/index.ts, does pull zod in.
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

async function bundle(entry: string) {
  const r = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['electron'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(r.metafile.inputs);
  const output = Object.values(r.metafile.outputs)[0];
  return { inputs, npm: inputs.filter((i) => i.includes('node_modules/')), externals: output.imports.filter((i) => i.external).map((i) => i.path) };
}

describe('the preload bundle', () => {
  it('holds no npm package, and requires only electron', async () => {
    const b = await bundle('electron/preload.ts');
    expect(b.inputs).toContain('shared/api/client.ts');
    expect(b.inputs).toContain('shared/api/method-names.ts');
    expect(b.npm).toEqual([]);
    expect([...new Set(b.externals)]).toEqual(['electron']);
  });

  it('(control) the method table itself pulls zod in', async () => {
    const b = await bundle('shared/api/index.ts');
    expect(b.npm.some((i) => i.includes('node_modules/zod/'))).toBe(true);
  });
});
