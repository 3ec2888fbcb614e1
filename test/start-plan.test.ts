// `npm start`'s decisions (scripts/start-plan.mjs), one platform branch at a time.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error plain ESM script without types
import { NODE_RANGE, electronNativeDir, nativeMatches, nodeProblem, nodeScript, sandboxProblem, startPlan } from '../scripts/start-plan.mjs';
import pkg from '../package.json' with { type: 'json' };
import { world } from './support/world.js';

const electron = { path: '/x/electron', why: '' };

describe('npm start: Node version', () => {
  it('accepts 20.19+, 22.12+ and 23+, refuses older in one sentence naming the version', () => {
    for (const v of ['20.19.0', '20.20.2', 'v22.12.0', '24.1.0', '26.0.0']) expect(nodeProblem(v)).toBeNull();
    for (const v of ['18.20.0', '20.18.3', '21.7.0', '22.11.0']) {
      const m = nodeProblem(v);
      expect(m).toMatch(/Node 20\.19 or later/);
      expect(m).toContain(v);
      expect(m!.split('. ').length).toBe(1);
    }
    expect(startPlan({ nodeVersion: '20.18.0', electron, sandbox: null, native: 'ready' }).action).toBe('refuse');
  });

  it('package.json engines say the same range', () => {
    expect(pkg.engines.node).toBe(NODE_RANGE);
  });
});

describe('npm start: Windows spawning', () => {
  it('runs tools as node <script>, never a .cmd, so no shell is needed', () => {
    const s = nodeScript('C:\\node\\node.exe', 'C:\\nexus\\scripts\\electron-native.mjs', ['--arch', 'x64']);
    expect(s.command).toBe('C:\\node\\node.exe');
    expect(s.args).toEqual(['C:\\nexus\\scripts\\electron-native.mjs', '--arch', 'x64']);
    expect(s.options.shell).toBe(false);
    expect(s.options.windowsHide).toBe(true);
  });

  it('start.mjs no longer spawns electron-builder(.cmd) or npm (Node refuses .cmd without a shell)', async () => {
    const { readFileSync } = await import('node:fs');
    const src = readFileSync(join(import.meta.dirname, '..', 'scripts', 'start.mjs'), 'utf8');
    expect(src).not.toMatch(/electron-builder\.cmd|run\('npm'|spawnSync\('npm'|install-app-deps/);
  });

  it('the plan, run as a real child process through this Node, works (exit 0)', async () => {
    const w = world();
    const dir = w.dir('plan');
    try {
      const script = join(dir, 'ok.mjs');
      writeFileSync(script, 'process.stdout.write(process.argv.slice(2).join(","))');
      const s = nodeScript(process.execPath, script, ['a', 'b c']);
      const r = spawnSync(s.command, s.args, { ...s.options, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('a,b c');
    } finally {
      await w.cleanup();
    }
  });
});

describe('npm start: Linux sandbox (Ubuntu 23.10+ AppArmor)', () => {
  const base = { platform: 'linux', sandboxPath: '/n/node_modules/electron/dist/chrome-sandbox' };
  it('says what to do when namespaces are restricted and chrome-sandbox is not root-owned 4755', () => {
    const m = sandboxProblem({ ...base, restrict: '1\n', sandbox: { uid: 1000, mode: 0o100755 } });
    expect(m).toContain('sudo chown root:root /n/node_modules/electron/dist/chrome-sandbox && sudo chmod 4755');
    expect(m).toContain('.deb');
    expect(startPlan({ nodeVersion: '22.12.0', electron, sandbox: m, native: 'ready' })).toEqual({ action: 'browser', message: m });
  });

  it('is quiet when unrestricted, when the helper is set up, and off Linux', () => {
    expect(sandboxProblem({ ...base, restrict: '0', sandbox: { uid: 1000, mode: 0o100755 } })).toBeNull();
    expect(sandboxProblem({ ...base, restrict: null, sandbox: null })).toBeNull();
    expect(sandboxProblem({ ...base, restrict: '1', sandbox: { uid: 0, mode: 0o104755 } })).toBeNull();
    expect(sandboxProblem({ ...base, restrict: '1', sandbox: { uid: 0, mode: 0o100755 } })).not.toBeNull();
    expect(sandboxProblem({ ...base, restrict: '1', sandbox: null })).not.toBeNull();
    expect(sandboxProblem({ ...base, platform: 'darwin', restrict: '1', sandbox: null })).toBeNull();
  });
});

describe('npm start: the Electron build of better-sqlite3', () => {
  const want = { electron: '45.5.0', betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64' };
  it('lives in native/electron-<platform>-<arch>, beside node_modules', () => {
    expect(electronNativeDir('/repo', 'win32', 'arm64')).toBe(join('/repo', 'native', 'electron-win32-arm64'));
  });

  it('is rebuilt when missing or built for another Electron/better-sqlite3/arch, used when it matches', () => {
    expect(nativeMatches(want, want)).toBe(true);
    for (const k of Object.keys(want)) expect(nativeMatches({ ...want, [k]: 'other' }, want)).toBe(false);
    expect(nativeMatches(null, want)).toBe(false);
    expect(startPlan({ nodeVersion: '22.12.0', electron, sandbox: null, native: 'missing' }).action).toBe('build-native');
    expect(startPlan({ nodeVersion: '22.12.0', electron, sandbox: null, native: 'failed' }).action).toBe('browser');
    expect(startPlan({ nodeVersion: '22.12.0', electron, sandbox: null, native: 'ready' }).action).toBe('electron');
  });

  it('without an Electron binary the window opens in the browser and says why', () => {
    expect(
      startPlan({ nodeVersion: '22.12.0', electron: { path: null, why: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' }, sandbox: null, native: 'missing' }),
    ).toEqual({
      action: 'browser',
      message: 'no Electron binary here (ELECTRON_SKIP_BINARY_DOWNLOAD is set)',
    });
  });
});
