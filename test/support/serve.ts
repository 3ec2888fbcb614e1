// A real `nexus serve` in its own process (the built dist, as a user runs it) on a fresh temp data dir, and
// the real `nexus` command run as separate processes against it. Not a test file itself.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { removeDir, world } from './world.js';

export const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'nexus.cjs');

export interface Served {
  dir: string;
  out(): string;
  /** Run `nexus ARGS --data-dir DIR` as its own process. */
  nexus(...args: string[]): Promise<{ code: number; out: string; err: string }>;
  /** `nexus ARGS --json`, asserting exit 0, parsed. */
  json<T = unknown>(...args: string[]): Promise<T>;
  /** Poll `f` until it returns something truthy. */
  until<T>(what: string, f: () => Promise<T | null | undefined | false>, timeoutMs?: number): Promise<T>;
  /** Stop the server; the data dir is removed unless `keepDir` (then serve it again with `{ dir }`). */
  stop(opts?: { keepDir?: boolean }): Promise<void>;
  /** kill -9 the kernel (nothing cleaned up); `serve(env, { dir })` starts a new one on the same data dir. */
  crash(): Promise<void>;
}

export function build(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
}

/** `prepare` runs on the fresh data dir before the kernel starts (e.g. to leave files there). */
export async function serve(env: NodeJS.ProcessEnv = {}, opts: { dir?: string; prepare?: (dir: string) => void } = {}): Promise<Served> {
  const w = world();
  const dir = opts.dir ?? w.dir('spec');
  opts.prepare?.(dir);
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--data-dir', dir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (c) => (log += c));
  child.stderr!.on('data', (c) => (log += c));
  for (let i = 0; i < 400 && !log.includes('control socket:') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  if (!log.includes('control socket:')) {
    child.kill('SIGKILL');
    await w.cleanup(); // a dir passed in stays the caller's
    throw new Error(`nexus serve did not start: ${log}`);
  }
  const nexus = (...args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args, '--data-dir', dir], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
      });
    });
  const served: Served = {
    dir,
    out: () => log,
    nexus,
    async json(...args) {
      const r = await nexus(...args, '--json');
      if (r.code !== 0) throw new Error(`nexus ${args.join(' ')} exited ${r.code}: ${r.err}`);
      return JSON.parse(r.out);
    },
    async until(what, f, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const v = await f();
        if (v) return v;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop({ keepDir = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      // A stopped server's dir goes, a dir passed in too, unless kept for the next serve.
      if (!keepDir) removeDir(dir);
    },
    async crash() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
  return served;
}
