// Building better-sqlite3 for Electron never touches node_modules: the build happens on a copy, and the result
// (or nothing) lands in its own folder. Needs the network to succeed; offline it must fail cleanly.
import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// @ts-expect-error plain ESM script without types
import { buildElectronNative, loadsInNode, wanted } from '../scripts/electron-native.mjs';
import { world } from './support/world.js';

const require = createRequire(import.meta.url);
const nodeBuild = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
const root = join(import.meta.dirname, '..');

describe('scripts/electron-native.mjs', () => {
  it("tells a Node build from an Electron one (the guard against npm's nodedir pointing at Node's headers)", () => {
    expect(loadsInNode(nodeBuild)).toBe(true);
    expect(loadsInNode(join(root, 'package.json'))).toBe(false);
  });

  it('builds into its own folder or fails with a reason; node_modules keeps the Node build either way', { timeout: 600_000 }, async () => {
    const before = hash(nodeBuild);
    const w = world();
    const out = join(w.dir('native-out'), 'electron');
    try {
      let error: unknown = null;
      await buildElectronNative({ out }).catch((e: unknown) => (error = e));
      if (error) expect(String(error)).toMatch(/\w/);
      else {
        expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toEqual(wanted());
        expect(loadsInNode(join(out, 'better_sqlite3.node'))).toBe(false); // Electron's ABI, not this Node's
      }
      expect(hash(nodeBuild)).toBe(before);
      // No staging copy left behind.
      const native = join(root, 'native');
      expect(existsSync(native) ? readdirSync(native).filter((n) => n.startsWith('.staging')) : []).toEqual([]);
      // The Node build still loads under Node.
      const Database = require('better-sqlite3');
      expect(new Database(':memory:').prepare('select 1 as one').get()).toEqual({ one: 1 });
    } finally {
      await w.cleanup();
    }
  });
});
