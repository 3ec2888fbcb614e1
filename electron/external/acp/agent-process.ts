// The ACP agent's process: started through the same launch path as NEXUS's own bash rows and stdio MCP servers
// (sandbox/launch.ts: bubblewrap, the data dir hidden, the workspace the only writable folder, network only to the
// profile's hosts through the proxy, the allowlisted environment), in its own process group. Its stdio is the ACP
// channel, so it has no "go" gate (the gate closes stdin); instead its group is recorded in the store as soon as it
// exists, and bwrap's --die-with-parent ends it with the kernel in any case.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { AcpAgentConfig } from '../../../shared/types.js';
import { prepareLaunch, processStartTime, type Launch, type SandboxPolicy } from '../../sandbox/index.js';
import type { ProcessTracker } from '../../sandbox/tool.js';

export interface AgentProcess {
  child: ChildProcess;
  launch: Launch;
  /** The agent's stdin / stdout as web streams, for the SDK's ndJsonStream. */
  input: WritableStream<Uint8Array>;
  output: ReadableStream<Uint8Array>;
  /** Kill the whole group (SIGKILL) and release the sandbox's proxy; idempotent. */
  kill(): Promise<void>;
  exited: Promise<void>;
  /** The last lines the agent wrote to stderr (for an error message). */
  stderrTail(): string;
}

/** The agent's stdout as a web stream of bytes (Node's toWeb is typed `any` chunks; a pipe gives Buffers). */
function bytes(r: Readable): ReadableStream<Uint8Array> {
  const reader = Readable.toWeb(r).getReader();
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) c.close();
      else if (value instanceof Uint8Array) c.enqueue(value);
    },
    cancel: (why) => reader.cancel(why),
  });
}

export async function startAgentProcess(
  cfg: AcpAgentConfig,
  policy: SandboxPolicy,
  o: { processes: ProcessTracker },
): Promise<AgentProcess | { refusal: string }> {
  const prepared = await prepareLaunch([cfg.command, ...(cfg.args ?? [])], policy, { serverEnv: cfg.env ?? {} });
  if (!prepared.ok) return { refusal: prepared.refusal };
  const launch = prepared.launch;
  const child = spawn(launch.file, launch.args, {
    env: launch.env,
    cwd: launch.cwd,
    detached: process.platform !== 'win32',
    windowsHide: true,
    stdio: ['pipe', 'pipe', 'pipe', launch.seccomp ? 'pipe' : 'ignore'],
  });
  // bwrap reads the base seccomp filter from fd 3 before it starts anything.
  const filter = child.stdio[3];
  if (launch.seccomp && filter instanceof Writable) filter.end(launch.seccomp);
  let tail = '';
  child.stderr?.on('data', (b: Buffer) => (tail = (tail + b.toString('utf8')).slice(-2000)));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const pid = child.pid;
  const start = pid ? processStartTime(pid) : null;
  if (pid && start) o.processes.started(pid, start);
  let killed: Promise<void> | null = null;
  const kill = () =>
    (killed ??= (async () => {
      if (pid && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* the group is gone */
        }
      }
      await exited;
      if (pid && start) o.processes.ended(pid, start);
      await launch.close().catch(() => undefined);
    })());
  void exited.then(() => kill());
  if (!child.stdin || !child.stdout) {
    await kill();
    return { refusal: 'the agent process has no stdio pipes' };
  }
  return {
    child,
    launch,
    input: Writable.toWeb(child.stdin),
    output: bytes(child.stdout),
    kill,
    exited,
    stderrTail: () => tail,
  };
}
