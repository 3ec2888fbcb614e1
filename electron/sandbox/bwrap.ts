// The bubblewrap command line for one sandboxed process (Linux). Pure: unit-tested on its output.
//   - the machine read-only (`--ro-bind / /`), a fresh /dev, a private /tmp (tmpfs);
//   - the hidden folders (NEXUS's data dir) replaced by empty tmpfs; a workspace inside one is bound back;
//   - the workspace read-write;
//   - its own pid namespace with its own /proc (the kernel's processes and their environ are invisible),
//     its own network namespace (only loopback: no network unless a proxy socket is bound in), IPC and UTS;
//   - --die-with-parent (the sandbox dies with the kernel, even on kill -9) and --new-session (no TIOCSTI
//     into a terminal it does not own);
//   - no capability and no_new_privs, as root too: its own user namespace (root is mapped to nobody inside, so
//     the nested namespace apply-seccomp builds maps no uid 0), --cap-drop ALL, and the base seccomp filter
//     (seccomp.ts) read from fd `seccompFd`;
//   - the host's runtime folders (/run, /var/run, $XDG_RUNTIME_DIR) replaced by empty tmpfs: the session bus,
//     ssh-agent, gpg-agent and docker.sock live there (NixOS's /run/current-system is bound back);
//   - as root, the host's root-only files (root-secrets.ts) covered: a file by /dev/null, a folder by tmpfs.
import { isAbsolute, relative } from 'node:path';
import type { SandboxPolicy } from './policy.js';

/** Where the proxy's socket directory appears inside the sandbox. */
export const PROXY_DIR_INSIDE = '/tmp/.nexus-net';
export const PROXY_PORT_INSIDE = 3128;
/** Who root becomes inside the sandbox (nobody, present in every /etc/passwd). */
export const ROOT_INSIDE = '65534';

export interface BwrapOptions {
  proxyDir?: string;
  /** Folders under /tmp to keep readable (NEXUS's own files, run from a checkout there). */
  readOnly?: readonly string[];
  /** The fd bwrap reads the base seccomp filter from. */
  seccompFd: number;
  /** Is NEXUS running as root? */
  root: boolean;
  /** Existing runtime folders to cover with tmpfs (real folders, not symlinks: see runtimeDirs()). */
  runtime?: readonly string[];
  /** Symlinks under a covered runtime folder to make again, as [target, link] (NixOS's /run/current-system). */
  runtimeLinks?: ReadonlyArray<readonly [string, string]>;
  /** As root: the host's root-only files and folders to cover (root-secrets.ts). */
  rootOnly?: { files: readonly string[]; dirs: readonly string[] };
}

/** Is `p` equal to or inside `dir`? */
export const within = (p: string, dir: string): boolean => {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** `readOnly`: folders to keep readable although they lie under /tmp (NEXUS's own files, run from a checkout
 *  there): the private /tmp would hide them, and with them the MCP servers and tools NEXUS ships. */
export function bwrapArgs(policy: SandboxPolicy, o: BwrapOptions): string[] {
  const ws = policy.workspace;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const r of o.runtime ?? []) args.push('--tmpfs', r);
  for (const [target, link] of o.runtimeLinks ?? []) args.push('--symlink', target, link);
  for (const p of o.readOnly ?? []) if (within(p, '/tmp') && p !== '/tmp') args.push('--ro-bind', p, p);
  // A root-only folder that holds what NEXUS runs from is left readable (hiding it would break every command).
  const needed = o.readOnly ?? [];
  const secretDirs = (o.rootOnly?.dirs ?? []).filter((d) => !needed.some((p) => within(p, d)));
  const covered = [...policy.hidden, ...secretDirs];
  // A hidden folder holding the workspace is covered first, then the workspace bound back on top;
  // one inside the workspace (or anywhere else) is covered after the bind, so it stays hidden.
  const holding = covered.filter((h) => within(ws, h) && ws !== h);
  const others = covered.filter((h) => !holding.includes(h));
  for (const h of holding) args.push('--tmpfs', h);
  args.push('--bind', ws, ws);
  for (const h of others) args.push('--tmpfs', h);
  // A file under a covered folder is gone already; one in the workspace is the agent's own.
  for (const f of o.rootOnly?.files ?? []) if (!within(f, ws) && !covered.some((d) => within(f, d))) args.push('--ro-bind', '/dev/null', f);
  if (o.proxyDir) args.push('--bind', o.proxyDir, PROXY_DIR_INSIDE);
  args.push(
    '--unshare-user',
    ...(o.root ? ['--uid', ROOT_INSIDE, '--gid', ROOT_INSIDE] : []),
    '--cap-drop',
    'ALL',
    '--seccomp',
    String(o.seccompFd),
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
    '--chdir',
    ws,
    '--',
  );
  return args;
}
