#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into native/electron-<platform>-<arch>/ (better_sqlite3.node +
// manifest.json), leaving node_modules/better-sqlite3 — the Node build the `nexus` command and the tests
// use — untouched. The Electron shell loads it with `new Database(path, { nativeBinding })`
// (electron/store/native-binding.ts); packages ship it as resources/native/ (electron-builder.yml).
//
// How: a copy of the installed better-sqlite3 goes into a staging folder inside native/, and
// @electron/rebuild builds that copy (a prebuilt binary through prebuild-install when one is published for
// this Electron, else node-gyp against Electron's headers). Both need the network once.
//
//   node scripts/electron-native.mjs [--platform linux|darwin|win32] [--arch x64|arm64]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { electronNativeDir, nativeMatches } from './start-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The version of an installed package (read from its package.json, without loading the package). */
export function installedVersion(name) {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`, { paths: [root] }), 'utf8')).version;
}

export function wanted(platform = process.platform, arch = process.arch) {
  return {
    electron: installedVersion('electron'),
    betterSqlite3: installedVersion('better-sqlite3'),
    platform,
    arch,
  };
}

export function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
}

// npm settings that point node-gyp at other headers (Debian's npm sets nodedir=/usr globally): with them the
// "Electron" build would silently be compiled against this Node's headers.
const FOREIGN_HEADERS = ['npm_config_nodedir', 'npm_config_target', 'npm_config_runtime', 'npm_config_disturl', 'npm_config_dist_url'];

/** A build for Electron must NOT load in this Node (another ABI); one that does was built for Node. */
export function loadsInNode(file) {
  const r = spawnSync(process.execPath, ['-e', `process.dlopen({ exports: {} }, ${JSON.stringify(file)})`], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0;
}

export async function buildElectronNative({ platform = process.platform, arch = process.arch, out = electronNativeDir(root, platform, arch) } = {}) {
  const want = wanted(platform, arch);
  if (nativeMatches(readManifest(out), want) && existsSync(join(out, 'better_sqlite3.node'))) return out;
  const staging = join(root, 'native', `.staging-${process.pid}`);
  const pkgDir = dirname(require.resolve('better-sqlite3/package.json'));
  try {
    mkdirSync(join(staging, 'node_modules'), { recursive: true });
    writeFileSync(
      join(staging, 'package.json'),
      JSON.stringify({ name: 'nexus-native-staging', private: true, dependencies: { 'better-sqlite3': want.betterSqlite3 } }),
    );
    // Copy the sources, not the Node build: the staging copy is what gets rebuilt.
    cpSync(pkgDir, join(staging, 'node_modules', 'better-sqlite3'), {
      recursive: true,
      dereference: true,
      filter: (src) => !src.includes(`${join(pkgDir, 'build')}`),
    });
    const { rebuild } = await import('@electron/rebuild');
    const saved = FOREIGN_HEADERS.map((k) => [k, process.env[k]]);
    for (const [k] of saved) delete process.env[k];
    try {
      await rebuild({ buildPath: staging, electronVersion: want.electron, platform, arch, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' });
    } finally {
      for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
    }
    const built = join(staging, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) throw new Error('the rebuild finished without producing build/Release/better_sqlite3.node');
    if (platform === process.platform && arch === process.arch && loadsInNode(built)) {
      throw new Error("the result loads in this Node, so it was built against Node's headers, not Electron's; it was not installed");
    }
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    copyFileSync(built, join(out, 'better_sqlite3.node'));
    writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(want, null, 2)}\n`);
    return out;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { platform: { type: 'string' }, arch: { type: 'string' } } });
  try {
    const out = await buildElectronNative({ platform: values.platform ?? process.platform, arch: values.arch ?? process.arch });
    console.log(`NEXUS: the Electron build of better-sqlite3 is in ${out}`);
  } catch (e) {
    console.error(`NEXUS: could not build better-sqlite3 for Electron: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
