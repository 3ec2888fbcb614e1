#!/usr/bin/env node
// `npm start` (after `npm run build`): open the NEXUS window. The decisions live in start-plan.mjs (tested);
// this file gathers the facts and does what the plan says:
//  1. Refuse a Node too old for Electron's installer, in one sentence.
//  2. Find the Electron binary (downloading it once if needed, as `install-electron` does).
//  3. On Linux, check that Chromium's sandbox can start (Ubuntu 23.10+ AppArmor), else say how to fix it.
//  4. Make sure the Electron-ABI build of better-sqlite3 exists in native/ (scripts/electron-native.mjs);
//     node_modules keeps the Node build, so `nexus`, `nexus serve` and the tests work while the window is open.
//  5. Launch Electron. Where any step cannot work, say why in ONE line and open the same window in the
//     browser instead, through the browser host (`nexus serve`, 127.0.0.1 only).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readManifest, wanted } from './electron-native.mjs';
import { electronNativeDir, nativeMatches, nodeScript, sandboxProblem, startPlan } from './start-plan.mjs';

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
  const lines = `${r.stderr ?? ''}\n${r.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  const detail = lines.find((l) => /error|fail/i.test(l)) ?? (r.error ? String(r.error.message) : 'no network');
  return { path: null, why: `downloading it failed: ${detail.slice(0, 120)}` };
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
  console.log(`NEXUS: ${why}, so the window opens in your browser instead via \`nexus serve\` on 127.0.0.1.`);
  const child = spawn(process.execPath, [join(root, 'bin', 'nexus.cjs'), 'serve', ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] });
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
  const app = spawn(binary, [root, ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined } });
  const stop = () => app.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  app.on('exit', (code) => process.exit(code ?? 0));
}

function sandboxFacts(binary) {
  if (process.platform !== 'linux' || !binary) return null;
  const sandboxPath = join(dirname(binary), 'chrome-sandbox');
  let restrict = null;
  try {
    restrict = readFileSync('/proc/sys/kernel/apparmor_restrict_unprivileged_userns', 'utf8');
  } catch {
    /* no such switch: namespaces are not restricted */
  }
  let sandbox = null;
  try {
    const s = statSync(sandboxPath);
    sandbox = { uid: s.uid, mode: s.mode };
  } catch {
    /* missing helper: Chromium would fail the same way */
  }
  return sandboxProblem({ platform: process.platform, restrict, sandbox, sandboxPath });
}

function nativeState() {
  const dir = electronNativeDir(root, process.platform, process.arch);
  return nativeMatches(readManifest(dir), wanted()) && existsSync(join(dir, 'better_sqlite3.node')) ? 'ready' : 'missing';
}

// The Node check comes first: an older Node fails inside Electron's installer with an obscure error.
const tooOld = startPlan({ nodeVersion: process.versions.node, electron: { path: null, why: '' } });
if (tooOld.action === 'refuse') {
  console.error(`NEXUS: ${tooOld.message}`);
  process.exit(1);
}
const found = electronBinary();
const facts = { nodeVersion: process.versions.node, electron: found, sandbox: sandboxFacts(found.path), native: found.path ? nativeState() : 'missing' };
let plan = startPlan(facts);
if (plan.action === 'build-native') {
  console.log('NEXUS: building better-sqlite3 for Electron into native/ (once per Electron version)…');
  const s = nodeScript(process.execPath, join(root, 'scripts', 'electron-native.mjs'));
  const r = spawnSync(s.command, s.args, { cwd: root, stdio: 'inherit', ...s.options });
  plan = startPlan({ ...facts, native: r.status === 0 && nativeState() === 'ready' ? 'ready' : 'failed' });
}
if (plan.action === 'electron') electronWindow(found.path);
else browserHost(plan.message);
