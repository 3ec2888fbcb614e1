// `bash`: a command in the run's workspace, inside the OS sandbox (sandbox/), with a timeout; output captured
// and capped; the process group recorded before the command runs, and killed whole on timeout or when the
// run is stopped.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { ExecutorTool, ProcessTracker } from '../types.js';
import { commandSpawnOptions, findBash, killProcessTree } from './process-tree.js';
import { bashResult, type BashOutcome } from './bash-result.js';
import { prepareLaunch, processStartTime, type SandboxPolicy } from '../../sandbox/index.js';

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 3600;
/** Per stream: the first and last HALF bytes are kept, the middle elided. */
const CAP = 64 * 1024;
const HALF = CAP / 2;

/** Collects a stream's output up to CAP bytes (head + tail), counting what it dropped. */
class CappedBuffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail = Buffer.alloc(0);
  private dropped = 0;
  push(chunk: Buffer) {
    if (this.headLen < HALF) {
      const take = chunk.subarray(0, HALF - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (!chunk.length) return;
    const joined = Buffer.concat([this.tail, chunk]);
    if (joined.length > HALF) {
      this.dropped += joined.length - HALF;
      this.tail = joined.subarray(joined.length - HALF);
    } else this.tail = joined;
  }
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = this.tail.toString('utf8');
    return this.dropped ? `${head}\n[… ${this.dropped} bytes elided …]\n${tail}` : head + tail;
  }
}

/** Without a policy (direct callers, tests): sandboxed, confined to `cwd`, no network, nothing passed. */
const defaultPolicy = (cwd: string): SandboxPolicy => ({ enabled: true, workspace: cwd, hidden: [], networkAllow: [], envPassthrough: [], envWithheld: [] });

/** Run one command; resolves when the process (group) has exited. */
export async function runCommand(
  command: string | string[],
  opts: { cwd: string; timeout_ms: number; signal?: AbortSignal; policy?: SandboxPolicy; track?: ProcessTracker },
): Promise<BashOutcome> {
  const started = Date.now();
  const policy = opts.policy ?? defaultPolicy(opts.cwd);
  const bash = findBash();
  const argv = typeof command === 'string' ? [bash.ok ? bash.path : 'bash', '-c', command] : command;
  const prepared = await prepareLaunch(
    argv,
    { ...policy, workspace: opts.cwd },
    { gate: true, ...(typeof command === 'string' ? { commandLine: command } : {}) },
  );
  const blank = { exit_code: null, signal: null, timed_out: false, stdout: '', stderr: '', duration_ms: 0, sandboxed: policy.enabled };
  if (!prepared.ok) return { ...blank, aborted: false, refused: prepared.refusal };
  const launch = prepared.launch;
  if (opts.signal?.aborted) {
    await launch.close();
    return { ...blank, aborted: true };
  }
  return new Promise((resolvePromise) => {
    const out = new CappedBuffer();
    const err = new CappedBuffer();
    let timedOut = false;
    let aborted = false;
    // POSIX: the command leads its own process group, so the whole group can be killed (and recorded);
    // Windows: no console window, and the tree is killed with taskkill /T (process-tree.ts).
    // bwrap reads the base seccomp filter from fd 3 to its end before it starts anything.
    const child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe', launch.seccomp ? 'pipe' : 'ignore'],
      ...commandSpawnOptions(),
    });
    // With four stdio entries the typings cannot know the first three are pipes; they are.
    const [stdin, stdout, stderr] = [child.stdin!, child.stdout!, child.stderr!];
    const filterPipe = child.stdio[3] as Writable | null | undefined;
    filterPipe?.on('error', () => undefined);
    if (launch.seccomp) filterPipe?.end(launch.seccomp);
    const killGroup = () => void killProcessTree(child.pid);
    stdin.on('error', () => undefined);
    let recorded: { pgid: number; start: string } | null = null;
    if (child.pid) {
      // The gate inside waits for "go": the group is durable in the store before the command starts.
      const start = processStartTime(child.pid);
      try {
        if (start !== null) {
          opts.track?.started(child.pid, start);
          recorded = { pgid: child.pid, start };
        }
        stdin.end('go\n');
      } catch (e) {
        err.push(Buffer.from(`NEXUS could not record the process before running it: ${(e as Error).message}\n`));
        killGroup();
      }
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeout_ms);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    stdout.on('data', (c: Buffer) => out.push(c));
    stderr.on('data', (c: Buffer) => err.push(c));
    let spawnError: Error | null = null;
    child.on('error', (e) => (spawnError = e));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // The shell may have exited while a background child of it still holds the group: clean it up too.
      killGroup();
      if (recorded) {
        try {
          opts.track?.ended(recorded.pgid, recorded.start);
        } catch {
          /* the store closed: recovery forgets the record at the next start */
        }
      }
      const refusedHosts = launch.refusedHosts();
      void launch.close().finally(() =>
        resolvePromise({
          exit_code: code,
          signal: signal ?? null,
          timed_out: timedOut,
          aborted,
          stdout: out.text(),
          stderr: spawnError ? `${err.text()}${(spawnError as Error).message}` : err.text(),
          duration_ms: Date.now() - started,
          sandboxed: launch.sandboxed,
          hidden: launch.sandboxed ? policy.hidden : [],
          offline: launch.sandboxed && policy.networkAllow.length === 0,
          ...(refusedHosts.length ? { refused_hosts: refusedHosts } : {}),
        }),
      );
    });
  });
}

export const bashTool: ExecutorTool = {
  name: 'bash',
  description: "Run a shell command (bash -c) in the agent's workspace. Output is capped; the command is killed at its timeout.",
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line.' },
      timeout_s: {
        type: 'number',
        description: `Seconds before the command is killed (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}). (timeout / timeout_ms in milliseconds are accepted too.)`,
      },
    },
    required: ['command'],
  },
  target: (input) => {
    const c = (input as { command?: unknown } | null)?.command;
    return typeof c === 'string' ? c : Array.isArray(c) ? c.join(' ') : '(no command)';
  },
  async run(input, ctx) {
    const i = (input ?? {}) as { command?: unknown; timeout_s?: unknown };
    // An argv (Codex's `shell`: ["bash", "-lc", "…"]) is executed as that argv, no extra shell around it.
    const command =
      typeof i.command === 'string'
        ? i.command
        : Array.isArray(i.command) && i.command.length > 0 && i.command.every((w) => typeof w === 'string')
          ? (i.command as string[])
          : null;
    if (command === null || (typeof command === 'string' && command.trim() === ''))
      return { content: [{ type: 'text', text: 'bash needs a "command" (text).' }], isError: true };
    const bash = typeof command === 'string' ? findBash() : null;
    if (bash && !bash.ok) return { content: [{ type: 'text', text: bash.message }], isError: true };
    // timeout_s is ours; `timeout` (Claude Code's Bash) and `timeout_ms` (Codex) are milliseconds.
    const ms = i as { timeout?: unknown; timeout_ms?: unknown };
    const given =
      i.timeout_s !== undefined
        ? { v: i.timeout_s, scale: 1, key: 'timeout_s' }
        : ms.timeout_ms !== undefined
          ? { v: ms.timeout_ms, scale: 1000, key: 'timeout_ms' }
          : ms.timeout !== undefined
            ? { v: ms.timeout, scale: 1000, key: 'timeout' }
            : null;
    let timeout_s = DEFAULT_TIMEOUT_S;
    if (given) {
      if (typeof given.v !== 'number' || !(given.v > 0)) return { content: [{ type: 'text', text: `${given.key} must be a positive number.` }], isError: true };
      timeout_s = Math.min(given.v / given.scale, MAX_TIMEOUT_S);
    }
    const o = await runCommand(command, {
      cwd: ctx.workspace,
      timeout_ms: timeout_s * 1000,
      signal: ctx.signal,
      ...(ctx.sandbox ? { policy: ctx.sandbox } : {}),
      ...(ctx.processes ? { track: ctx.processes } : {}),
    });
    return bashResult(o, timeout_s);
  },
};
