import { describe, it, expect, afterEach } from 'vitest';
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bindingCandidates, chooseBinding, databaseOptions } from './native-binding.js';
import { world } from '../../test/support/world.js';

const require = createRequire(import.meta.url);
const nodeBuild = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});

function checkout(manifest: object | null): string {
  const root = w.dir('native');
  const dir = join(root, 'native', `electron-${process.platform}-${process.arch}`);
  mkdirSync(dir, { recursive: true });
  // The Node build stands in for the Electron one: what matters is that exactly this file gets loaded.
  copyFileSync(nodeBuild, join(dir, 'better_sqlite3.node'));
  if (manifest) writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return root;
}

describe('better-sqlite3 binding per runtime', () => {
  it('under Node: the node_modules build (no option)', () => {
    expect(databaseOptions({ versions: { node: '22.12.0' } })).toEqual({});
  });

  it('under Electron: the build beside node_modules, loaded for real through nativeBinding', () => {
    const root = checkout({ electron: '45.5.0', platform: process.platform, arch: process.arch });
    const opts = databaseOptions({ versions: { electron: '45.5.0' }, appRoot: root, execPath: '/nowhere/electron' });
    expect(opts.nativeBinding).toBe(join(root, 'native', `electron-${process.platform}-${process.arch}`, 'better_sqlite3.node'));
    const db = new Database(':memory:', opts);
    expect(db.prepare('select 41 + 1 as n').get()).toEqual({ n: 42 });
    db.close();
  });

  it('refuses, in a sentence, a build for another Electron or without a manifest (never falls back to the Node build)', () => {
    const other = checkout({ electron: '44.0.0', platform: process.platform, arch: process.arch });
    expect(() => databaseOptions({ versions: { electron: '45.5.0' }, appRoot: other, execPath: '/nowhere/electron' })).toThrow(
      /No build of better-sqlite3 for Electron 45\.5\.0.*electron-native\.mjs/,
    );
    const bare = checkout(null);
    expect(() => databaseOptions({ versions: { electron: '45.5.0' }, appRoot: bare, execPath: '/nowhere/electron' })).toThrow(/No build/);
  });

  it('a package looks in its resources/native first (Resources on macOS)', () => {
    expect(bindingCandidates({ execPath: '/opt/NEXUS/nexus-desktop', platform: 'linux', arch: 'x64', appRoot: '/opt/NEXUS/resources/app.asar' })[0]).toBe(
      '/opt/NEXUS/resources/native',
    );
    expect(bindingCandidates({ execPath: '/Applications/NEXUS.app/Contents/MacOS/NEXUS', platform: 'darwin', arch: 'arm64', appRoot: '/x' })[0]).toBe(
      '/Applications/NEXUS.app/Contents/Resources/native',
    );
    const seen: string[] = [];
    const choice = chooseBinding({
      versions: { electron: '45.5.0' },
      execPath: '/opt/NEXUS/nexus-desktop',
      platform: 'linux',
      arch: 'x64',
      appRoot: '/opt/NEXUS/resources/app.asar',
      exists: (p) => (seen.push(p), p === '/opt/NEXUS/resources/native/better_sqlite3.node'),
      readText: () => JSON.stringify({ electron: '45.5.0', platform: 'linux', arch: 'x64' }),
    });
    expect(choice).toEqual({ kind: 'electron', path: '/opt/NEXUS/resources/native/better_sqlite3.node' });
  });
});
