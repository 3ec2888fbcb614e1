// A real PostgreSQL cluster for desk tests: initdb in a temp dir, one free TCP port on 127.0.0.1, run as an
// unprivileged user (Postgres refuses root). CI is a fresh machine running as root: `nobody` exists on every
// Debian, so the cluster runs as it; a non-root test run simply runs it as itself.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';
export const pgAvailable = existsSync(join(BIN, 'initdb'));

export interface PgCluster {
  port: number;
  /** A URL for `role` on the test database (trust authentication: no secret in tests). */
  url(role?: string): string;
  /** The cluster's superuser (who runs `nexus desk init` and creates people's roles). */
  adminUrl: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? res(a.port) : rej(new Error('no port'))));
    });
  });

const asRoot = process.getuid?.() === 0;
const wrap = (cmd: string, args: string[]): [string, string[]] =>
  asRoot ? ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', cmd, ...args]] : [cmd, args];

export async function startCluster(): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-pg-'));
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  if (asRoot) chownSync(dir, 65534, 65534);
  const [c, a] = wrap(join(BIN, 'initdb'), ['-D', data, '-U', 'desk_admin', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  execFileSync(c, a, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const start = async () => {
    if (proc && proc.exitCode === null) return; // already running
    const [pc, pa] = wrap(join(BIN, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off']);
    proc = spawn(pc, pa, { stdio: 'ignore', cwd: dir });
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (await canConnect(port)) break;
      if (Date.now() > deadline) throw new Error('postgres did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    const done = new Promise((r) => p.once('exit', r));
    p.kill('SIGINT'); // fast shutdown: clients are disconnected at once
    await done;
  };
  await start();
  const { default: postgres } = await import('postgres');
  const admin = postgres({ host: '127.0.0.1', port, user: 'desk_admin', database: 'postgres', onnotice: () => {} });
  // The port answers a moment before the server accepts sessions: retry until it does.
  for (let i = 0; ; i++) {
    try {
      await admin.unsafe('CREATE DATABASE desk');
      break;
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.end();
  const url = (role = 'desk_admin') => `postgres://${role}@127.0.0.1:${port}/desk`;
  return {
    port,
    url,
    adminUrl: url(),
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const canConnect = (port: number): Promise<boolean> =>
  new Promise((res) => {
    const s = new Socket();
    s.once('connect', () => (s.destroy(), res(true)));
    s.once('error', () => res(false));
    s.connect(port, '127.0.0.1');
  });
