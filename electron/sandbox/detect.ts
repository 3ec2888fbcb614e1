// Which OS sandbox this machine can give an agent's processes: bubblewrap on Linux, sandbox-exec on macOS.
// Probed once per process (a real `bwrap ... true` run: an installed bwrap may still be unable to create
// namespaces, e.g. in a container without user namespaces) and cached. Tests inject a probe.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export type SandboxKind = 'bwrap' | 'seatbelt';
export type SandboxAvailability = { kind: SandboxKind } | { kind: null; why: string };
export type SandboxProbe = () => SandboxAvailability;

export const INSTALL_SENTENCE: Readonly<Record<string, string>> = {
  linux:
    'No OS sandbox is available to confine this agent\'s commands: install bubblewrap (for example `sudo apt-get install bubblewrap`, `sudo dnf install bubblewrap` or `sudo pacman -S bubblewrap`), or turn the sandbox off for this agent ("sandbox": false in its profile).',
  darwin:
    'No OS sandbox is available to confine this agent\'s commands: /usr/bin/sandbox-exec is missing from this Mac; turn the sandbox off for this agent ("sandbox": false in its profile) to run them unconfined.',
  other:
    'No OS sandbox is available on this platform to confine this agent\'s commands; turn the sandbox off for this agent ("sandbox": false in its profile) to run them unconfined.',
};

/** The namespaces and mounts every real sandbox uses: if this runs, the real ones will. */
const PROBE_ARGS = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
  '--unshare-pid',
  '--unshare-net',
  '--die-with-parent',
  '--new-session',
  '--',
  'true',
];

export const defaultProbe: SandboxProbe = () => {
  if (process.platform === 'darwin') return existsSync('/usr/bin/sandbox-exec') ? { kind: 'seatbelt' } : { kind: null, why: INSTALL_SENTENCE.darwin! };
  if (process.platform !== 'linux') return { kind: null, why: INSTALL_SENTENCE.other! };
  const r = spawnSync('bwrap', PROBE_ARGS, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  if (r.status === 0) return { kind: 'bwrap' };
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return { kind: null, why: INSTALL_SENTENCE.linux! };
  const err = (r.stderr?.toString() ?? r.error?.message ?? '').trim().split('\n')[0]?.slice(0, 200) ?? '';
  return {
    kind: null,
    why: `bubblewrap is installed but cannot create a sandbox on this machine (${err || `exit ${r.status}`}): allow unprivileged user namespaces (for example \`sudo sysctl kernel.unprivileged_userns_clone=1\`, or an AppArmor profile for bwrap), or turn the sandbox off for this agent ("sandbox": false in its profile).`,
  };
};

let probe: SandboxProbe = defaultProbe;
let cached: SandboxAvailability | null = null;

/** The sandbox this machine offers (probed once, then cached). */
export function sandboxAvailability(): SandboxAvailability {
  return (cached ??= probe());
}

/** Tests: replace the probe (null restores the real one); the cache is cleared either way. */
export function setSandboxProbe(p: SandboxProbe | null): void {
  probe = p ?? defaultProbe;
  cached = null;
}
