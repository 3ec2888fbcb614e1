#!/usr/bin/env node
// A packaging rehearsal that needs no network and no Electron download: electron-builder packs the Linux app
// directory (the step the deb and the AppImage are made from) around a stand-in "Electron" — a copy of this
// Node with an Electron fuse wire appended, so the fuses step runs for real. Then it checks what was made:
//   - the GUI executable is nexus-desktop, the command line is resources/cli/nexus;
//   - the fuses are flipped as electron-builder.yml says;
//   - the Electron build of better-sqlite3 sits in resources/native (here: a stand-in copy of the Node build);
//   - app.asar holds the bundles and the window;
//   - resources/cli/nexus, run through the stand-in binary as Node (ELECTRON_RUN_AS_NODE=1), works, and
//     `nexus serve` from the package serves the packaged window (not a 503).
// Needs `npm run build` first. Slow (minutes): not part of `npm test`. Run: node scripts/package-dry-run.mjs
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedVersion } from './electron-native.mjs';
import { electronNativeDir } from './start-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's own defaults: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity
// off, only-asar off, browser V8 snapshot off, file:// privileges on.
const DEFAULT_WIRE = '10110001';
const FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

if (process.platform !== 'linux') {
  console.log('The packaging rehearsal runs on Linux only.');
  process.exit(0);
}
for (const f of ['dist/electron/main.cjs', 'dist/cli/nexus.cjs', 'dist/renderer/index.html']) {
  if (!existsSync(join(root, f))) {
    console.error(`Missing ${f}: run \`npm run build\` first.`);
    process.exit(2);
  }
}

const work = mkdtempSync(join(tmpdir(), 'nexus-dry-run-'));
const fake = join(work, 'electron-dist');
mkdirSync(join(fake, 'resources'), { recursive: true });
const electronVersion = installedVersion('electron');
const wire = Buffer.concat([readFileSync(process.execPath), Buffer.from(SENTINEL), Buffer.from([1, DEFAULT_WIRE.length]), Buffer.from(DEFAULT_WIRE)]);
writeFileSync(join(fake, 'electron'), wire, { mode: 0o755 });
copyFileSync(process.execPath, join(fake, 'chrome-sandbox'));
for (const f of ['LICENSE', 'LICENSES.chromium.html']) writeFileSync(join(fake, f), 'stand-in\n');
writeFileSync(join(fake, 'version'), electronVersion);

// A stand-in for the Electron build of better-sqlite3 when none was built (it needs the network).
const nativeDir = electronNativeDir(root, 'linux', process.arch);
let madeNative = false;
if (!existsSync(join(nativeDir, 'better_sqlite3.node'))) {
  mkdirSync(nativeDir, { recursive: true });
  copyFileSync(
    join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node'),
    join(nativeDir, 'better_sqlite3.node'),
  );
  writeFileSync(
    join(nativeDir, 'manifest.json'),
    JSON.stringify({ electron: electronVersion, betterSqlite3: installedVersion('better-sqlite3'), platform: 'linux', arch: process.arch }),
  );
  madeNative = true;
}

const out = join(work, 'release');
const builder = join(dirname(require.resolve('electron-builder/package.json')), 'cli.js');
const started = Date.now();
const b = spawnSync(process.execPath, [builder, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${fake}`, `-c.directories.output=${out}`], {
  cwd: root,
  stdio: 'inherit',
});
console.log(`electron-builder --linux dir: exit ${b.status} after ${Math.round((Date.now() - started) / 1000)} s`);
if (madeNative) rmSync(nativeDir, { recursive: true, force: true });
const app = join(out, 'linux-unpacked');
check(b.status === 0, 'electron-builder packed the Linux app directory');

if (b.status === 0) {
  const res = join(app, 'resources');
  check(
    existsSync(join(app, 'nexus-desktop')) && !existsSync(join(app, 'nexus')),
    'the window executable is nexus-desktop (the name nexus is left to the command line)',
  );
  check((statSync(join(res, 'cli', 'nexus')).mode & 0o111) !== 0, 'resources/cli/nexus is executable');
  check(
    existsSync(join(res, 'native', 'better_sqlite3.node')) && existsSync(join(res, 'native', 'manifest.json')),
    'resources/native holds the Electron build of better-sqlite3 and its manifest',
  );
  const bin = readFileSync(join(app, 'nexus-desktop'));
  const at = bin.lastIndexOf(SENTINEL) + SENTINEL.length;
  const flipped = bin.subarray(at + 2, at + 2 + bin[at + 1]).toString();
  const fuses = Object.fromEntries(FUSES.map((name, i) => [name, flipped[i] === '1']));
  console.log(`     fuses: ${JSON.stringify(fuses)}`);
  check(
    fuses.runAsNode &&
      !fuses.enableNodeOptionsEnvironmentVariable &&
      !fuses.enableNodeCliInspectArguments &&
      fuses.enableEmbeddedAsarIntegrityValidation &&
      fuses.onlyLoadAppFromAsar &&
      !fuses.grantFileProtocolExtraPrivileges,
    'fuses: RunAsNode kept (for the CLI), NODE_OPTIONS and --inspect off, asar only + integrity on, no file:// privileges',
  );

  // Plain Node cannot read app.asar: unpack it to resources/app (the CLI entry looks there too).
  const asar = require('@electron/asar');
  const files = asar.listPackage(join(res, 'app.asar'), { isPack: false }).map((f) => f.split('\\').join('/'));
  for (const f of ['/dist/electron/main.cjs', '/dist/cli/nexus.cjs', '/dist/renderer/index.html', '/package.json'])
    check(files.includes(f), `app.asar holds ${f}`);
  const maps = files.filter((f) => f.endsWith('.map'));
  check(maps.length === 0, `app.asar holds no source maps${maps.length ? ` (${maps.slice(0, 3).join(', ')}…)` : ''}`);
  check(files.includes('/node_modules/better-sqlite3/lib/index.js'), 'app.asar holds better-sqlite3 (its JavaScript; the binary is resources/native)');
  asar.extractAll(join(res, 'app.asar'), join(res, 'app'));
  rmSync(join(res, 'app.asar'));
  // The real Electron passes resources/native to better-sqlite3 (process.versions.electron is set); the
  // stand-in binary is plain Node and loads the default binding through the `bindings` package instead.
  // When this checkout's node_modules is a symlink, electron-builder's collector finds no path for hoisted
  // packages (it logs "cannot find path for dependency"): give the rehearsal the two it needs.
  for (const dep of ['bindings', 'file-uri-to-path']) {
    const to = join(res, 'app', 'node_modules', dep);
    if (!existsSync(to)) {
      console.log(`note ${dep} is not in the package (electron-builder found no path for it here); copied for the stand-in only`);
      cpSync(dirname(require.resolve(`${dep}/package.json`)), to, { recursive: true, dereference: true });
    }
  }
  mkdirSync(join(res, 'app', 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(
    join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node'),
    join(res, 'app', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
  );

  const data = join(work, 'data');
  const cli = (args) => spawnSync(join(res, 'cli', 'nexus'), args, { encoding: 'utf8', env: { ...process.env, NEXUS_DATA_DIR: data }, timeout: 60_000 });
  const help = cli(['--help']);
  check(help.status === 0 && /usage: nexus/.test(help.stdout + help.stderr), 'resources/cli/nexus --help answers through the app binary as Node');
  const status = cli(['status']);
  check(status.status !== 0 && /No NEXUS kernel is running/.test(status.stderr + status.stdout), 'resources/cli/nexus status says no kernel is running');
  const served = await serveCheck(res, data);
  check(served === 200, `nexus serve from the package serves the packaged window (GET / → ${served})`);
}
rmSync(work, { recursive: true, force: true });
console.log(failures.length ? `\n${failures.length} check(s) failed.` : '\nAll packaging checks passed.');
process.exit(failures.length ? 1 : 0);

function serveCheck(res, data) {
  return new Promise((resolve) => {
    const child = spawn(join(res, 'cli', 'nexus'), ['serve', '--port', '0'], {
      env: { ...process.env, NEXUS_DATA_DIR: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    const done = (v) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      resolve(v);
    };
    const timer = setTimeout(() => done(`no URL within 60 s: ${text.slice(0, 300)}`), 60_000);
    const onData = async (c) => {
      text += String(c);
      const m = /(https?:\/\/127\.0\.0\.1:\d+)\/\S*/.exec(text);
      if (!m || !/\n/.test(text.slice(m.index))) return; // the whole line, token included
      child.stdout.off('data', onData);
      try {
        // The token URL answers 303 + a cookie; the page itself needs the cookie.
        const first = await fetch(m[0], { redirect: 'manual' });
        const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
        const page = await fetch(`${m[1]}/`, { headers: { cookie } });
        const html = await page.text();
        done(page.status === 200 && html.includes('id="root"') ? 200 : `${page.status} ${html.slice(0, 80)}`);
      } catch (e) {
        done(String(e));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => (text += String(c)));
  });
}
