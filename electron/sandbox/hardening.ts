// What the Linux sandbox needs from this machine beyond bubblewrap: the base seccomp filter for its
// architecture, the apply-seccomp binary (from @anthropic-ai/sandbox-runtime: static, for x64 and arm64) that
// puts the AF_UNIX and namespace filters on the agent's command, and the runtime folders to hide.
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { within } from './bwrap.js';
import { baseSeccompFilter, seccompArch, type SeccompArch } from './seccomp.js';

export interface Hardening {
  arch: SeccompArch;
  /** The base filter (bwrap --seccomp). */
  filter: Buffer;
  /** Absolute path of apply-seccomp. */
  applySeccomp: string;
}

const binaryFor = (arch: SeccompArch): string | null => {
  const rel = join('vendor', 'seccomp', arch, 'apply-seccomp');
  const candidates: string[] = [];
  try {
    const pkg = createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime/package.json');
    candidates.push(join(dirname(pkg), rel));
  } catch {
    /* not installed: a bundle may carry its own copy next to it */
  }
  candidates.push(join(dirname(fileURLToPath(import.meta.url)), rel));
  return candidates.find((c) => existsSync(c)) ?? null;
};

let cached: Hardening | string | undefined;

/** The hardening for this machine, or the sentence saying why there is none. */
export function hardening(): Hardening | string {
  if (cached !== undefined) return cached;
  const arch = seccompArch();
  if (!arch)
    return (cached = `NEXUS has no seccomp filter for this processor (${process.arch}): it confines agents' commands only on x86-64 and arm64; turn the sandbox off for this agent ("sandbox": false in its profile) to run them unconfined.`);
  const applySeccomp = binaryFor(arch);
  if (!applySeccomp)
    return (cached = `NEXUS cannot confine this agent's commands: the apply-seccomp binary of @anthropic-ai/sandbox-runtime (vendor/seccomp/${arch}) is missing from this installation; reinstall NEXUS, or turn the sandbox off for this agent ("sandbox": false in its profile).`);
  return (cached = { arch, filter: baseSeccompFilter(arch), applySeccomp });
}

const isRealDir = (p: string): boolean => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The host's runtime folders that exist as real folders (a symlink such as /var/run -> /run is covered
 *  through its target), outermost first, plus the symlinks under /run to make again inside. */
export function runtimeDirs(env: NodeJS.ProcessEnv = process.env): { dirs: string[]; links: Array<[string, string]> } {
  const uid = process.getuid?.();
  const wanted = [
    '/run',
    '/var/run',
    ...(uid !== undefined ? [`/run/user/${uid}`] : []),
    ...(env.XDG_RUNTIME_DIR?.startsWith('/') ? [env.XDG_RUNTIME_DIR] : []),
  ];
  const dirs: string[] = [];
  for (const d of wanted) if (isRealDir(d) && !within(d, '/tmp') && !dirs.some((o) => within(d, o))) dirs.push(d);
  const links: Array<[string, string]> = [];
  for (const l of ['/run/current-system', '/run/booted-system']) {
    try {
      if (dirs.includes('/run') && lstatSync(l).isSymbolicLink()) links.push([readlinkSync(l), l]);
    } catch {
      /* absent: nothing to make again */
    }
  }
  return { dirs, links };
}
