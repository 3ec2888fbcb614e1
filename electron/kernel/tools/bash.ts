// `bash`: a command in the run's workspace, with a timeout; output captured and capped; the whole process
// group killed on timeout or when the run is stopped.
import { spawn } from 'node:child_process';
import type { ExecutorTool } from '../types.js';
import { commandSpawnOptions, findBash, killProcessTree } from './process-tree.js';
import type { ToolResult } from '../../../shared/types.js';

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

// Provider keys may sit in the kernel's environment (DESIGN §7: keys come from env vars). A command an agent
// composed must not read them, so secret-looking variables are dropped from the child's environment.
const SECRET = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!SECRET.test(k) && !k.startsWith('NEXUS_ENTITLEMENT')) out[k] = v;
  return out;
}

export interface BashOutcome {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  duration_ms: number;
}

/** Run one command; resolves when the process (group) has exited. */
export function runCommand(command: string | string[], opts: { cwd: string; timeout_ms: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv }): Promise<BashOutcome> {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const out = new CappedBuffer();
    const err = new CappedBuffer();
    let timedOut = false;
    let aborted = false;
    const bash = findBash();
    const [file, args] = typeof command === 'string' ? [bash.ok ? bash.path : 'bash', ['-c', command]] : [command[0], command.slice(1)];
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env ?? childEnv(), stdio: ['ignore', 'pipe', 'pipe'], ...commandSpawnOptions() });
    // The whole tree: a process group on POSIX, taskkill /T on Windows (process-tree.ts).
    const killGroup = () => void killProcessTree(child.pid);
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
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let spawnError: Error | null = null;
    child.on('error', (e) => (spawnError = e));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // The shell may have exited while a background child of it still holds the group: clean it up too.
      killGroup();
      resolvePromise({
        exit_code: code,
        signal: signal ?? null,
        timed_out: timedOut,
        aborted,
        stdout: out.text(),
        stderr: spawnError ? `${err.text()}${(spawnError as Error).message}` : err.text(),
        duration_ms: Date.now() - started,
      });
    });
  });
}

export function bashResult(o: BashOutcome, timeout_s: number): ToolResult {
  const parts: string[] = [];
  if (o.stdout) parts.push(o.stdout.replace(/\n$/, ''));
  if (o.stderr) parts.push(`[stderr]\n${o.stderr.replace(/\n$/, '')}`);
  if (o.timed_out) parts.push(`[timed out after ${timeout_s} s; the command was killed]`);
  else if (o.aborted) parts.push('[stopped: the run was stopped]');
  else if (o.exit_code !== 0) parts.push(`[exit code ${o.exit_code ?? o.signal}]`);
  return {
    content: [{ type: 'text', text: parts.join('\n') || '(no output)' }],
    structuredContent: { exit_code: o.exit_code, signal: o.signal, timed_out: o.timed_out, duration_ms: o.duration_ms, stdout: o.stdout, stderr: o.stderr },
    isError: o.exit_code !== 0,
  };
}

export const bashTool: ExecutorTool = {
  name: 'bash',
  description: "Run a shell command (bash -c) in the agent's workspace. Output is capped; the command is killed at its timeout.",
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line.' },
      timeout_s: { type: 'number', description: `Seconds before the command is killed (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}). (timeout / timeout_ms in milliseconds are accepted too.)` },
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
      typeof i.command === 'string' ? i.command : Array.isArray(i.command) && i.command.length > 0 && i.command.every((w) => typeof w === 'string') ? (i.command as string[]) : null;
    if (command === null || (typeof command === 'string' && command.trim() === '')) return { content: [{ type: 'text', text: 'bash needs a "command" (text).' }], isError: true };
    const bash = typeof command === 'string' ? findBash() : null;
    if (bash && !bash.ok) return { content: [{ type: 'text', text: bash.message }], isError: true };
    // timeout_s is ours; `timeout` (Claude Code's Bash) and `timeout_ms` (Codex) are milliseconds.
    const ms = i as { timeout?: unknown; timeout_ms?: unknown };
    const given = i.timeout_s !== undefined ? { v: i.timeout_s, scale: 1, key: 'timeout_s' } : ms.timeout_ms !== undefined ? { v: ms.timeout_ms, scale: 1000, key: 'timeout_ms' } : ms.timeout !== undefined ? { v: ms.timeout, scale: 1000, key: 'timeout' } : null;
    let timeout_s = DEFAULT_TIMEOUT_S;
    if (given) {
      if (typeof given.v !== 'number' || !(given.v > 0)) return { content: [{ type: 'text', text: `${given.key} must be a positive number.` }], isError: true };
      timeout_s = Math.min(given.v / given.scale, MAX_TIMEOUT_S);
    }
    const o = await runCommand(command, { cwd: ctx.workspace, timeout_ms: timeout_s * 1000, signal: ctx.signal });
    return bashResult(o, timeout_s);
  },
};
