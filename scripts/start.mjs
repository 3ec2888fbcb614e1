#!/usr/bin/env node
// `npm start` (after `npm run build`): open the NEXUS window.
//  1. Find the Electron binary (downloading it once if needed, as `install-electron` does).
//  2. If there is one: rebuild better-sqlite3 for Electron's ABI (electron-builder install-app-deps, i.e.
//     @electron/rebuild), launch Electron, and put the Node build back when the window closes, so the `nexus`
//     command and the tests keep working.
//  3. If there is none (no network to GitHub, an unsupported platform): say so in ONE line and open the same
//     window in the browser instead, through the browser host (`nexus serve`, 127.0.0.1 only).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const require = createRequire(import.meta.url);

function electronBinary() {
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve('electron/package.json', { paths: [root] }));
  } catch {
    return { path: null, why: 'the electron package is not installed' };
  }
  const pathFile = join(pkgDir, 'path.txt');
  const binary = () => (existsSync(pathFile) ? join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null);
  let p = binary();
  if (p && existsSync(p)) return { path: p };
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { path: null, why: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' };
  // Electron downloads its binary on first use; allow it a while, quietly.
  const r = spawnSync(process.execPath, [join(pkgDir, 'install.js')], { cwd: pkgDir, encoding: 'utf8', timeout: 120_000, stdio: 'pipe' });
  p = binary();
  if (r.status === 0 && p && existsSync(p)) return { path: p };
  // The first line that is not a stack frame says what went wrong (e.g. "TypeError: fetch failed").
  const lines = `${r.stderr ?? ''}\n${r.stdout ?? ''}`.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at '));
  const detail = lines.find((l) => /error|fail/i.test(l)) ?? (r.error ? String(r.error.message) : 'no network');
  return { path: null, why: `downloading it failed: ${detail.slice(0, 120)}` };
}

function run(cmd, argv, opts = {}) {
  return spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
}

function openInBrowser(url) {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  try {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* printing the URL is enough */
  }
}

function browserHost(why) {
  console.log(`NEXUS: no Electron binary here (${why}), so the window opens in your browser instead via \`nexus serve\` on 127.0.0.1.`);
  const child = spawn(process.execPath, [join(root, 'bin', 'nexus.mjs'), 'serve', ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] });
  let opened = false;
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const m = /https?:\/\/127\.0\.0\.1:\d+\/\S*/.exec(String(chunk));
    if (m && !opened) {
      opened = true;
      openInBrowser(m[0]);
    }
  });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}

function electronWindow(binary) {
  const builder = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder');
  const rebuilt = run(builder, ['install-app-deps'], { env: { ...process.env } });
  if (rebuilt.status !== 0) {
    console.log('NEXUS: could not rebuild better-sqlite3 for Electron (electron-builder install-app-deps failed); the window may not start.');
  }
  const app = spawn(binary, [root, ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined } });
  const stop = () => app.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  app.on('exit', (code) => {
    if (rebuilt.status === 0) {
      console.log('NEXUS: putting back the Node build of better-sqlite3 (for the nexus command and the tests)…');
      run('npm', ['rebuild', 'better-sqlite3'], { stdio: 'ignore' });
    }
    process.exit(code ?? 0);
  });
}

const found = electronBinary();
if (found.path) electronWindow(found.path);
else browserHost(found.why);
