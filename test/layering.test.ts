// Layering is law (DESIGN §1). This test reads every source file's imports and fails on a breach.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;

/** Every source file under `dir`; a folder that is missing is an error (a check over zero files checks nothing). */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (SOURCE.test(name)) out.push(p);
  }
  return out;
}

/** Every module specifier a file names: static imports, re-exports, dynamic import() and require(). */
export function importsOf(source: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]/g,
    /(?:^|[\s;])import\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) specs.push(m[1]);
  return specs;
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const IO_PACKAGES = ['electron', 'better-sqlite3', 'ws', 'openai', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', 'jose'];
const isIo = (spec: string) =>
  spec.startsWith('node:') ||
  NODE_BUILTINS.has(spec) ||
  NODE_BUILTINS.has(spec.split('/')[0]) ||
  IO_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`));
const ELECTRON_IMPORTERS = new Set(['electron/main.ts', 'electron/preload.ts', 'electron/doors/ipc.ts']);
const rel = (p: string) => relative(root, p).split(sep).join('/');

describe('layering (DESIGN §1)', () => {
  it('shared/ imports nothing with I/O and nothing from electron/ or renderer/', () => {
    const breaches: string[] = [];
    for (const file of walk(join(root, 'shared'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (isIo(spec)) breaches.push(`${rel(file)} imports ${spec}`);
        if (spec.startsWith('.') && /(^|\/)(electron|renderer)\//.test(rel(join(file, '..', spec)))) breaches.push(`${rel(file)} imports ${spec}`);
      }
    }
    expect(breaches).toEqual([]);
  });

  it('only electron/main.ts, electron/preload.ts and electron/doors/ipc.ts import electron', () => {
    const breaches: string[] = [];
    for (const dir of ['shared', 'electron', 'renderer', 'e2e', 'bench', 'scripts', 'test']) {
      const files = walk(join(root, dir));
      expect(files.length, `${dir}/ holds source files`).toBeGreaterThan(0);
      for (const file of files) {
        if (ELECTRON_IMPORTERS.has(rel(file)) || rel(file).startsWith('e2e/')) continue;
        if (importsOf(readFileSync(file, 'utf8')).some((s) => s === 'electron' || s.startsWith('electron/'))) breaches.push(rel(file));
      }
    }
    expect(breaches).toEqual([]);
  });

  it('the renderer reaches the kernel only through shared/ (the typed NexusApi), never electron/ or Node', () => {
    const breaches: string[] = [];
    const files = walk(join(root, 'renderer'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      if (rel(file).endsWith('vite.config.ts')) continue;
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (isIo(spec)) breaches.push(`${rel(file)} imports ${spec}`);
        if (spec.startsWith('.') && rel(join(file, '..', spec)).startsWith('electron/')) breaches.push(`${rel(file)} imports ${spec}`);
      }
    }
    expect(breaches).toEqual([]);
  });

  it('the import reader catches the forms a breach could take', () => {
    const sample = `import x from 'node:fs';\nexport { y } from "electron";\nconst z = await import('ws');\nconst w = require('better-sqlite3');\nimport 'side-effect';`;
    expect(importsOf(sample)).toEqual(expect.arrayContaining(['node:fs', 'electron', 'ws', 'better-sqlite3', 'side-effect']));
  });
});
