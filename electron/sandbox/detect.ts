// Which OS sandbox this machine can give an agent's processes: bubblewrap on Linux, sandbox-exec on macOS.
// Probed once per process (a real sandbox run: an installed bwrap may still be unable to create namespaces,
// e.g. in a container without user namespaces, or may leave the process privileged) and cached. Tests inject
// a probe. Where no sandbox without privileges can be built, agents' commands are refused with one sentence.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { bwrapArgs } from './bwrap.js';
import { hardening, runtimeDirs } from './hardening.js';
import { rootSecrets } from './root-secrets.js';

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

/** A real sandbox's command line (bwrapArgs, the same hardening) around apply-seccomp and a look at what the
 *  process inside holds: if this runs and holds nothing, the real ones will. */
function probeBwrap(): SandboxAvailability {
  const hard = hardening();
  if (typeof hard === 'string') return { kind: null, why: hard };
  const run = runtimeDirs();
  const policy = { enabled: true, workspace: tmpdir(), hidden: [], networkAllow: [], envPassthrough: [], envWithheld: [] };
  const args = [
    ...bwrapArgs(policy, {
      readOnly: [dirname(hard.applySeccomp)],
      seccompFd: 0,
      root: process.getuid?.() === 0,
      runtime: run.dirs,
      runtimeLinks: run.links,
      rootOnly: rootSecrets(),
    }),
    hard.applySeccomp,
    'cat',
    '/proc/self/status',
  ];
  const r = spawnSync('bwrap', args, { input: hard.filter, stdio: ['pipe', 'pipe', 'pipe'], timeout: 10_000 });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return { kind: null, why: INSTALL_SENTENCE.linux! };
  if (r.status === 0) {
    const status = r.stdout.toString();
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1];
    // Three filters: bwrap's base one and apply-seccomp's two (kernels before 5.9 do not count them).
    const filters = field('Seccomp_filters');
    const layered = filters === undefined || Number(filters) >= 3;
    if (field('CapEff') === '0000000000000000' && field('NoNewPrivs') === '1' && field('Seccomp') === '2' && layered) return { kind: 'bwrap' };
    return {
      kind: null,
      why: `bubblewrap runs here but its sandbox still holds privileges (CapEff ${field('CapEff') ?? '?'}, NoNewPrivs ${field('NoNewPrivs') ?? '?'}, Seccomp ${field('Seccomp') ?? '?'}), so NEXUS will not run agents' commands in it; turn the sandbox off for this agent ("sandbox": false in its profile) to run them unconfined.`,
    };
  }
  const err = (r.stderr?.toString() ?? r.error?.message ?? '').trim().split('\n')[0]?.slice(0, 200) ?? '';
  return {
    kind: null,
    why: `bubblewrap is installed but cannot create a sandbox without privileges on this machine (${err || `exit ${r.status}`}): allow unprivileged user namespaces and seccomp (for example \`sudo sysctl kernel.unprivileged_userns_clone=1\`, or an AppArmor profile for bwrap), or turn the sandbox off for this agent ("sandbox": false in its profile).`,
  };
}

export const defaultProbe: SandboxProbe = () => {
  if (process.platform === 'darwin') return existsSync('/usr/bin/sandbox-exec') ? { kind: 'seatbelt' } : { kind: null, why: INSTALL_SENTENCE.darwin! };
  if (process.platform !== 'linux') return { kind: null, why: INSTALL_SENTENCE.other! };
  return probeBwrap();
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
