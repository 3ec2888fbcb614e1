// The bubblewrap command line for one sandboxed process (Linux). Pure: unit-tested on its output.
//   - the machine read-only (`--ro-bind / /`), a fresh /dev, a private /tmp (tmpfs);
//   - the hidden folders (NEXUS's data dir) replaced by empty tmpfs; a workspace inside one is bound back;
//   - the workspace read-write;
//   - its own pid namespace with its own /proc (the kernel's processes and their environ are invisible),
//     its own network namespace (only loopback: no network unless a proxy socket is bound in), IPC and UTS;
//   - --die-with-parent (the sandbox dies with the kernel, even on kill -9) and --new-session (no TIOCSTI
//     into a terminal it does not own).
import { isAbsolute, relative } from 'node:path';
import type { SandboxPolicy } from './policy.js';

/** Where the proxy's socket directory appears inside the sandbox. */
export const PROXY_DIR_INSIDE = '/tmp/.nexus-net';
export const PROXY_PORT_INSIDE = 3128;

/** Is `p` equal to or inside `dir`? */
export const within = (p: string, dir: string): boolean => {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** `readOnly`: folders to keep readable although they lie under /tmp (NEXUS's own files, run from a checkout
 *  there): the private /tmp would hide them, and with them the MCP servers and tools NEXUS ships. */
export function bwrapArgs(policy: SandboxPolicy, o: { proxyDir?: string; readOnly?: readonly string[] } = {}): string[] {
  const ws = policy.workspace;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const p of o.readOnly ?? []) if (within(p, '/tmp') && p !== '/tmp') args.push('--ro-bind', p, p);
  // A hidden folder holding the workspace is covered first, then the workspace bound back on top;
  // one inside the workspace (or anywhere else) is covered after the bind, so it stays hidden.
  const holding = policy.hidden.filter((h) => within(ws, h) && ws !== h);
  const others = policy.hidden.filter((h) => !holding.includes(h));
  for (const h of holding) args.push('--tmpfs', h);
  args.push('--bind', ws, ws);
  for (const h of others) args.push('--tmpfs', h);
  if (o.proxyDir) args.push('--bind', o.proxyDir, PROXY_DIR_INSIDE);
  args.push(
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
