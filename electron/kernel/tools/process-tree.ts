// The `bash` tool's platform edges: which bash to run, and how to kill a command with everything it started.
// POSIX: the command leads its own process group (spawned detached) and the group gets SIGKILL. Windows has
// no process groups a signal reaches (process.kill(-pid) throws and the children live on), so the tree is
// killed with `taskkill /T /F /PID`. Platform, environment, file checks and exec are injected for tests.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { win32 } from 'node:path';

export type Exec = (file: string, args: string[], options: { windowsHide: boolean; timeout: number }, done: (err: Error | null) => void) => unknown;

const realExec: Exec = (file, args, options, done) => execFile(file, args, options, (err) => done(err));

/** Kill the process `pid` and all its descendants. Resolves when done (or when nothing was left to kill). */
export function killProcessTree(
  pid: number | undefined,
  platform: NodeJS.Platform = process.platform,
  exec: Exec = realExec,
  kill: typeof process.kill = process.kill.bind(process),
): Promise<void> {
  if (!pid) return Promise.resolve();
  if (platform === 'win32') {
    // /T: the whole tree; /F: no asking. Failure means the tree is already gone.
    return new Promise((resolve) => {
      exec('taskkill', ['/T', '/F', '/PID', String(pid)], { windowsHide: true, timeout: 10_000 }, () => resolve());
    });
  }
  try {
    kill(-pid, 'SIGKILL');
  } catch {
    try {
      kill(pid, 'SIGKILL'); // not a group leader (or the group is gone): at least the process itself
    } catch {
      /* already gone */
    }
  }
  return Promise.resolve();
}

export type BashLookup = { ok: true; path: string } | { ok: false; message: string };

/**
 * The bash to run commands with. POSIX: `bash` from PATH. Windows: NEXUS_BASH if set, else Git for Windows'
 * bash (Program Files, per-user install, or a bash.exe on PATH). System32's bash.exe is WSL's launcher: it
 * runs in a Linux VM with other paths and another environment, so it is never chosen.
 */
export function findBash(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  exists: (p: string) => boolean = existsSync,
): BashLookup {
  if (platform !== 'win32') return { ok: true, path: 'bash' };
  const get = (k: string) => env[k] ?? Object.entries(env).find(([name]) => name.toUpperCase() === k.toUpperCase())?.[1];
  const given = get('NEXUS_BASH');
  if (given) {
    return exists(given) ? { ok: true, path: given } : { ok: false, message: `NEXUS_BASH names ${given}, which does not exist; the command was not run.` };
  }
  const candidates: string[] = [];
  for (const base of [get('ProgramFiles'), get('ProgramW6432'), get('ProgramFiles(x86)')])
    if (base) candidates.push(win32.join(base, 'Git', 'bin', 'bash.exe'));
  const local = get('LOCALAPPDATA');
  if (local) candidates.push(win32.join(local, 'Programs', 'Git', 'bin', 'bash.exe'));
  const systemRoot = (get('SystemRoot') ?? 'C:\\Windows').toLowerCase();
  for (const dir of (get('PATH') ?? '').split(';')) {
    if (!dir || dir.toLowerCase().startsWith(systemRoot)) continue;
    candidates.push(win32.join(dir, 'bash.exe'));
  }
  const found = candidates.find((c) => exists(c));
  if (found) return { ok: true, path: found };
  return {
    ok: false,
    message: 'There is no bash on this Windows machine, so the command was not run: install Git for Windows (it brings bash), or set NEXUS_BASH to a bash.exe.',
  };
}

/** Spawn options for a command's process: its own group on POSIX; on Windows no group and no console window. */
export function commandSpawnOptions(platform: NodeJS.Platform = process.platform): { detached: boolean; windowsHide: boolean } {
  return { detached: platform !== 'win32', windowsHide: true };
}
