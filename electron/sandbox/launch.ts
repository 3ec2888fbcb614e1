// How a process an agent's call starts is launched: inside the OS sandbox (bubblewrap on Linux,
// sandbox-exec on macOS) unless the person turned it off for the agent; with an allowlisted environment
// either way; where no sandbox exists, refused with one sentence saying how to get one.
//
// On Linux the command runs under two seccomp layers: the base filter bwrap installs on the whole sandbox
// (read from fd 3, see Launch.seccomp) and apply-seccomp's AF_UNIX + namespace filters, which wrap the
// command only, so the network bridge started before it can still reach the proxy's unix socket.
//
// Two optional steps run inside, before the command: the network bridge (socat from a loopback port to the
// proxy's unix socket, when the policy allows hosts; double-forked so it is the sandbox init's child, not an
// ancestor or sibling the command's shell owns) and the GATE: the command waits for one line "go" on its
// stdin, which the kernel writes only after the process group is recorded in the store. A kernel that dies
// before that closes the pipe, and the gate exits without running anything. The gate runs under both
// filters: nothing the agent wrote runs before them.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bwrapArgs, PROXY_DIR_INSIDE, PROXY_PORT_INSIDE } from './bwrap.js';
import { sandboxAvailability } from './detect.js';
import { childEnv } from './env.js';
import { hardening, runtimeDirs } from './hardening.js';
import { rootSecrets } from './root-secrets.js';
import type { SandboxPolicy } from './policy.js';
import { startProxy, type NetProxy } from './proxy.js';
import { seatbeltProfile } from './seatbelt.js';

/** The folder NEXUS runs from (its package root): kept readable inside the sandbox wherever it lies. */
let root: string | null = null;
function installRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6 && !existsSync(join(dir, 'package.json')); i++) dir = dirname(dir);
  return (root = dir);
}

export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Whether the OS sandbox confines it. */
  sandboxed: boolean;
  /** The base seccomp filter the process reads from its fd 3 (bwrap): spawn with a pipe there and write
   *  it, or start it through withSeccompFd(). */
  seccomp?: Buffer;
  /** Hosts the proxy refused (read after the process ended). */
  refusedHosts(): string[];
  /** Stop the proxy and remove its folder: call once the process has exited. */
  close(): Promise<void>;
}

export type LaunchOrRefusal = { ok: true; launch: Launch } | { ok: false; refusal: string };

const GATE = 'IFS= read -r nexus_gate && [ "$nexus_gate" = go ] || exit 125; unset nexus_gate; exec </dev/null; ';
// A shell command line runs in the gate's own bash (eval, no second exec: a few ms less per call); an argv
// is exec'd as that argv.
const RUN_ARGV = 'exec "$@"';
const RUN_LINE = 'nexus_cmd=$1; set --; eval "$nexus_cmd"';
export const SECCOMP_FD = 3;
const bridge = (sock: string) =>
  `(socat TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${sock} </dev/null >/dev/null 2>&1 &); ` +
  `for _ in $(seq 200); do (: </dev/tcp/127.0.0.1/${PROXY_PORT_INSIDE}) 2>/dev/null && break; sleep 0.01; done; `;

const proxyEnv = (url: string): Record<string, string> => ({
  HTTP_PROXY: url,
  HTTPS_PROXY: url,
  ALL_PROXY: url,
  http_proxy: url,
  https_proxy: url,
  all_proxy: url,
  NO_PROXY: '',
  no_proxy: '',
});

export async function prepareLaunch(
  argv: readonly string[],
  policy: SandboxPolicy,
  o: { gate?: boolean; from?: NodeJS.ProcessEnv; serverEnv?: Record<string, string>; commandLine?: string } = {},
): Promise<LaunchOrRefusal> {
  // What runs inside (after the optional bridge and gate): the command line through eval, or the argv.
  const body = `${o.gate ? GATE : ''}${o.commandLine !== undefined ? RUN_LINE : RUN_ARGV}`;
  const rest = o.commandLine !== undefined ? [o.commandLine] : argv;
  const env = (set: Record<string, string>) => ({
    ...childEnv(o.from ?? process.env, { passthrough: policy.envPassthrough, withheld: policy.envWithheld, set }),
    ...(o.serverEnv ?? {}),
  });
  const nothing = { refusedHosts: () => [], close: async () => {} };
  if (!policy.enabled) {
    const [file, args] = o.gate || o.commandLine !== undefined ? ['bash', ['--norc', '--noprofile', '-c', body, 'nexus', ...rest]] : [argv[0]!, argv.slice(1)];
    return { ok: true, launch: { file, args, env: env({}), cwd: policy.workspace, sandboxed: false, ...nothing } };
  }
  const avail = sandboxAvailability();
  if (avail.kind === null) return { ok: false, refusal: avail.why };
  const hard = avail.kind === 'bwrap' ? hardening() : null;
  if (typeof hard === 'string') return { ok: false, refusal: hard };
  const net = policy.networkAllow.length > 0;
  let dir: string | null = null;
  let proxy: NetProxy | null = null;
  const close = async () => {
    await proxy?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (hard) {
      if (net) {
        dir = mkdtempSync(join(tmpdir(), 'nexus-net-'));
        proxy = await startProxy(policy.networkAllow, join(dir, 'proxy.sock'));
      }
      const set: Record<string, string> = { TMPDIR: '/tmp', ...(net ? proxyEnv(`http://127.0.0.1:${PROXY_PORT_INSIDE}`) : {}) };
      // apply-seccomp, then the gate's bash (or the argv itself when there is no gate and no command line).
      const shell = o.gate || o.commandLine !== undefined;
      const command = [hard.applySeccomp, ...(shell ? ['bash', '--norc', '--noprofile', '-c', body, 'nexus', ...rest] : argv)];
      const inside = net ? ['bash', '--norc', '--noprofile', '-c', `${bridge(`${PROXY_DIR_INSIDE}/proxy.sock`)}exec "$@"`, 'nexus', ...command] : command;
      const run = runtimeDirs();
      const bw = bwrapArgs(policy, {
        readOnly: [installRoot(), dirname(hard.applySeccomp)],
        ...(dir ? { proxyDir: dir } : {}),
        seccompFd: SECCOMP_FD,
        root: process.getuid?.() === 0,
        runtime: run.dirs,
        runtimeLinks: run.links,
        rootOnly: rootSecrets(),
      });
      const launch: Launch = {
        file: 'bwrap',
        args: [...bw, ...inside],
        env: env(set),
        cwd: policy.workspace,
        sandboxed: true,
        seccomp: hard.filter,
        refusedHosts: () => [...(proxy?.refused ?? [])],
        close,
      };
      return { ok: true, launch };
    }
    dir = mkdtempSync(join(tmpdir(), 'nexus-tmp-'));
    if (net) proxy = await startProxy(policy.networkAllow, null);
    const port = proxy ? Number(proxy.address) : undefined;
    const profile = seatbeltProfile(policy, { tmpDir: dir, ...(port ? { proxyPort: port } : {}) });
    const set: Record<string, string> = { TMPDIR: dir, ...(port ? proxyEnv(`http://127.0.0.1:${port}`) : {}) };
    const args = ['-p', profile, 'bash', '--norc', '--noprofile', '-c', body, 'nexus', ...rest];
    return {
      ok: true,
      launch: {
        file: '/usr/bin/sandbox-exec',
        args,
        env: env(set),
        cwd: policy.workspace,
        sandboxed: true,
        refusedHosts: () => [...(proxy?.refused ?? [])],
        close,
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** For a caller that cannot hand the process an extra pipe (the MCP SDK's stdio transport): a bash that opens
 *  fd 3 on the filter's bytes and execs the launch. */
export function withSeccompFd(l: Launch): { file: string; args: string[] } {
  if (!l.seccomp) return { file: l.file, args: l.args };
  const escaped = [...l.seccomp].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  return {
    file: 'bash',
    args: ['--norc', '--noprofile', '-c', `f=$1; shift; exec "$@" ${SECCOMP_FD}< <(printf %b "$f")`, 'nexus', escaped, l.file, ...l.args],
  };
}
