// Which processes hold the other end of a control-socket connection (Linux). Node offers no SO_PEERCRED, so:
// our end's inode from /proc/self/fd, its peer's inode from `ss -x` (sock_diag, iproute2), then every process
// whose /proc/PID/fd holds that inode. Measured here: 5–6 ms for ss, 8–10 ms for the /proc walk of ~100
// processes; the door does it once per connection, and only when a call needs it. A hook's connection is named
// more cheaply (hookProcesses below), since it is made at every tool call of a connected client.
//
// Why every holder and not the first: a descriptor can be shared (fork, SCM_RIGHTS); the check refuses when any
// holder is a connected client's or an agent's.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';

export type PeerName =
  /** This system cannot name peers at all (not Linux, no /proc, no `ss`): the check does not apply. */
  | { kind: 'unsupported'; why: string }
  /** It can, but not this connection's (the line is missing or ambiguous, no holder is visible). */
  | { kind: 'unnamed'; why: string }
  | { kind: 'named'; pids: number[] };

/** The file descriptor libuv holds for this connection; Node keeps it on the handle, undocumented but stable. */
function fdOf(conn: Socket): number | null {
  const handle: unknown = Reflect.get(conn, '_handle');
  const fd: unknown = handle && typeof handle === 'object' ? Reflect.get(handle, 'fd') : undefined;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

const socketInode = (link: string): string | null => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? null;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function ss(path: string): Promise<string | { missing: string }> {
  return new Promise((resolve) => {
    execFile('ss', ['-xnH', 'src', path], { timeout: 5000, maxBuffer: 4 << 20, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' } }, (err, stdout) => {
      if (err && 'code' in err && err.code === 'ENOENT') resolve({ missing: 'the ss command (iproute2) is not installed' });
      else if (err) resolve({ missing: `ss failed: ${err.message}` });
      else resolve(stdout);
    });
  });
}

/**
 * The peer's inode: the one line whose local end is our socket path and our inode. The peer must print as `*`
 * (an unbound client, as the nexus command is): a client that bound a name of its own could put spaces or
 * line breaks in it to forge a line, so such a peer is not named at all.
 */
export function peerInodeOf(ssOutput: string, path: string, ours: string): string | null {
  const re = new RegExp(`^u_str\\s+\\S+\\s+\\d+\\s+\\d+\\s+${escapeRe(path)}\\s+${ours}\\s+\\*\\s+(\\d+)$`);
  const found = ssOutput
    .split('\n')
    .map((l) => re.exec(l.trim())?.[1])
    .filter((x): x is string => !!x);
  const [only, more] = found;
  return only !== undefined && more === undefined ? only : null;
}

/** Every process (whose fds we may read) holding socket `inode`. Synchronous: an async readlink per descriptor
 *  costs far more than the few milliseconds the whole walk blocks. */
export function holders(inode: string): number[] {
  const want = `socket:[${inode}]`;
  const pids: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return pids;
  }
  for (const name of names) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      let link = '';
      try {
        link = readlinkSync(`/proc/${name}/fd/${fd}`);
      } catch {
        /* closed meanwhile */
      }
      if (link === want) {
        pids.push(Number(name));
        break;
      }
    }
  }
  return pids;
}

/** Name the processes on the other end of `conn`, a connection accepted on the Unix socket at `path`. */
export async function namePeer(conn: Socket, path: string, opts: { platform?: NodeJS.Platform } = {}): Promise<PeerName> {
  const platform = opts.platform ?? process.platform;
  if (platform !== 'linux') return { kind: 'unsupported', why: `NEXUS cannot name a socket's peer on ${platform} yet` };
  const fd = fdOf(conn);
  let ours: string | null = null;
  try {
    if (fd !== null) ours = socketInode(readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    /* no /proc */
  }
  if (ours === null) return { kind: 'unsupported', why: 'this process cannot read its own socket descriptors in /proc' };
  const out = await ss(path);
  if (typeof out !== 'string') return { kind: 'unsupported', why: out.missing };
  const peer = peerInodeOf(out, path, ours);
  if (peer === null) return { kind: 'unnamed', why: 'ss does not show an unbound peer for this connection' };
  const pids = holders(peer);
  return pids.length ? { kind: 'named', pids } : { kind: 'unnamed', why: 'no process visible to NEXUS holds the other end' };
}

/** The hook's script (dist/hook/nexus-hook.mjs; HOOK_MARK in electron/external/connect/hook-command.ts). */
export const HOOK_SCRIPT = 'nexus-hook.mjs';

/**
 * The hooks running now: every process (whose cmdline we may read) with the hook's script among its arguments.
 * A hook connection names its client through these instead of `ss`: no process to spawn on each tool call, and
 * a process that merely calls itself a hook only puts its own parent on record, which gains it nothing.
 */
export function hookProcesses(platform: NodeJS.Platform = process.platform): PeerName {
  if (platform !== 'linux') return { kind: 'unsupported', why: `NEXUS cannot name a socket's peer on ${platform} yet` };
  const pids: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return { kind: 'unsupported', why: 'no /proc' };
  }
  for (const name of names) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv.some((a) => a === HOOK_SCRIPT || a.endsWith(`/${HOOK_SCRIPT}`))) pids.push(Number(name));
  }
  return pids.length ? { kind: 'named', pids } : { kind: 'unnamed', why: 'no hook process is running' };
}
