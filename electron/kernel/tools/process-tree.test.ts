import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { commandSpawnOptions, findBash, killProcessTree, type Exec } from './process-tree.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(ok: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return ok();
}

describe('killProcessTree', () => {
  it('POSIX: kills the command and the processes it started (its process group)', async () => {
    const child = spawn('bash', ['-c', 'sleep 30 & echo $!; sleep 30 & echo $!; wait'], {
      ...commandSpawnOptions('linux'),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pids: number[] = [];
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (c: Buffer) => (pids.push(...String(c).trim().split(/\s+/).map(Number)), pids.length >= 2 && resolve())),
    );
    const exited = new Promise((r) => child.on('exit', r));
    expect(pids.every(alive)).toBe(true);
    await killProcessTree(child.pid, 'linux');
    await exited;
    expect(await until(() => !pids.some(alive))).toBe(true);
  });

  it('Windows: asks taskkill for the whole tree, forced, with no console window', async () => {
    const calls: Array<{ file: string; args: string[]; hide: boolean }> = [];
    const exec: Exec = (file, args, o, done) => (calls.push({ file, args, hide: o.windowsHide }), done(null));
    const kills: unknown[] = [];
    await killProcessTree(4242, 'win32', exec, ((...a: unknown[]) => (kills.push(a), true)) as typeof process.kill);
    expect(calls).toEqual([{ file: 'taskkill', args: ['/T', '/F', '/PID', '4242'], hide: true }]);
    expect(kills).toEqual([]); // process.kill(-pid) does nothing useful on Windows
    // A tree that is already gone (taskkill fails) still resolves.
    await expect(killProcessTree(1, 'win32', (_f, _a, _o, done) => done(new Error('not found')))).resolves.toBeUndefined();
  });

  it('POSIX: a process that leads no group is still killed itself', async () => {
    const kills: Array<[number, string]> = [];
    const kill = ((pid: number, sig: string) => {
      kills.push([pid, sig]);
      if (pid < 0) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
      return true;
    }) as typeof process.kill;
    await killProcessTree(77, 'darwin', undefined, kill);
    expect(kills).toEqual([
      [-77, 'SIGKILL'],
      [77, 'SIGKILL'],
    ]);
  });

  it('spawn options: own group on POSIX; on Windows no detached console, window hidden', () => {
    expect(commandSpawnOptions('linux')).toEqual({ detached: true, windowsHide: true });
    expect(commandSpawnOptions('win32')).toEqual({ detached: false, windowsHide: true });
  });
});

describe('findBash', () => {
  const env = {
    ProgramFiles: 'C:\\Program Files',
    LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local',
    SystemRoot: 'C:\\Windows',
    Path: 'C:\\Windows\\System32;D:\\tools',
  };
  it('POSIX: bash from PATH', () => {
    expect(findBash('linux', {})).toEqual({ ok: true, path: 'bash' });
  });

  it("Windows: Git for Windows' bash, a per-user Git, or one on PATH — never System32's WSL launcher", () => {
    const has =
      (...files: string[]) =>
      (p: string) =>
        files.includes(p);
    expect(findBash('win32', env, has('C:\\Program Files\\Git\\bin\\bash.exe'))).toEqual({ ok: true, path: 'C:\\Program Files\\Git\\bin\\bash.exe' });
    expect(findBash('win32', env, has('C:\\Users\\a\\AppData\\Local\\Programs\\Git\\bin\\bash.exe')).ok).toBe(true);
    expect(findBash('win32', env, has('D:\\tools\\bash.exe'))).toEqual({ ok: true, path: 'D:\\tools\\bash.exe' });
    expect(findBash('win32', env, has('C:\\Windows\\System32\\bash.exe')).ok).toBe(false);
  });

  it('Windows without bash: refused with one clear sentence; NEXUS_BASH overrides and is checked', () => {
    const none = findBash('win32', env, () => false);
    expect(none).toEqual({
      ok: false,
      message: expect.stringMatching(/^There is no bash on this Windows machine, so the command was not run: install Git for Windows/),
    });
    expect(findBash('win32', { ...env, NEXUS_BASH: 'E:\\msys\\bash.exe' }, (p) => p === 'E:\\msys\\bash.exe')).toEqual({
      ok: true,
      path: 'E:\\msys\\bash.exe',
    });
    expect(findBash('win32', { ...env, NEXUS_BASH: 'E:\\nope.exe' }, () => false)).toMatchObject({
      ok: false,
      message: expect.stringContaining('NEXUS_BASH names E:\\nope.exe'),
    });
  });
});
