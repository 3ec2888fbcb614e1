// Apps started from the Dock, Finder or a .desktop file get a minimal environment (launchd's or the session's),
// without what the user's shell profile adds: PATH entries for npx/node (MCP servers), the API key variables a
// profile names in apiKeyEnv, NEXUS_DATA_DIR. At start the app runs the user's login shell once,
// interactive so that .zshrc/.bashrc count too, prints its environment between two random markers (profile
// scripts may print anything around them) and merges it over ours. Bounded by a timeout; any failure keeps
// the environment we have and says why.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { errorMessage } from '../../shared/errors.js';

export type LoginEnv = { ok: true; env: Record<string, string> } | { ok: false; reason: string };

/** Run from a terminal (npm start), the environment is already complete; on Windows there is no login shell. */
export function shouldLoadLoginEnv(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, fromTerminal: boolean): boolean {
  if (platform !== 'darwin' && platform !== 'linux') return false;
  if (env.NEXUS_SKIP_LOGIN_ENV === '1' || env.ELECTRON_RUN_AS_NODE) return false;
  return !fromTerminal;
}

export function loginShell(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  return env.SHELL && env.SHELL.startsWith('/') ? env.SHELL : platform === 'darwin' ? '/bin/zsh' : '/bin/bash';
}

/** The variables between the markers of `env -0` output: NUL-separated NAME=value (values may hold newlines). */
export function parseEnvBlock(stdout: string, marker: string): Record<string, string> | null {
  const start = stdout.indexOf(marker);
  const end = stdout.indexOf(marker, start + marker.length);
  if (start < 0 || end < 0) return null;
  const out: Record<string, string> = {};
  for (const entry of stdout.slice(start + marker.length, end).split('\0')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) out[name] = entry.slice(eq + 1);
  }
  return out;
}

export function readLoginShellEnv(opts: { shell: string; timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<LoginEnv> {
  const marker = `__NEXUS_ENV_${randomUUID().replace(/-/g, '')}__`;
  const script = `printf '%s' '${marker}'; env -0; printf '%s' '${marker}'`;
  return new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const finish = (r: LoginEnv) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // Its own process group, so a timeout kills whatever the profile started too.
      child = spawn(opts.shell, ['-ilc', script], {
        env: { ...(opts.env ?? process.env), NEXUS_LOADING_LOGIN_ENV: '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
      });
    } catch (e) {
      resolve({ ok: false, reason: `the login shell ${opts.shell} could not start: ${errorMessage(e)}` });
      return;
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      finish({ ok: false, reason: `the login shell ${opts.shell} did not answer within ${opts.timeoutMs ?? 10_000} ms` });
    }, opts.timeoutMs ?? 10_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => {
      stdout += c;
      if (stdout.length > 4 << 20) child.kill('SIGKILL');
    });
    child.on('error', (e) => finish({ ok: false, reason: `the login shell ${opts.shell} could not start: ${e.message}` }));
    child.on('close', () => {
      const env = parseEnvBlock(stdout, marker);
      finish(env ? { ok: true, env } : { ok: false, reason: `the login shell ${opts.shell} printed no environment` });
    });
  });
}

// The shell's own bookkeeping, and what must stay as this process was started.
const KEEP_OURS = new Set(['_', 'SHLVL', 'PWD', 'OLDPWD', 'NEXUS_LOADING_LOGIN_ENV', 'ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE', 'NODE_OPTIONS']);

/** Apply the login shell's variables to `target` (process.env): theirs win, except the ones above. */
export function mergeLoginEnv(target: NodeJS.ProcessEnv, loaded: Record<string, string>): string[] {
  const changed: string[] = [];
  for (const [k, v] of Object.entries(loaded)) {
    if (KEEP_OURS.has(k) || target[k] === v) continue;
    target[k] = v;
    changed.push(k);
  }
  return changed;
}
