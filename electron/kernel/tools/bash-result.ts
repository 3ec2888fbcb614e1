// What a bash command's outcome becomes for the model: its output, how it ended, and an honest note when the
// failure looks like the OS sandbox refusing (so an agent does not retry what can never work in its profile).
import type { ToolResult } from '../../../shared/types.js';

export interface BashOutcome {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  duration_ms: number;
  /** Whether the OS sandbox confined the command (false: the person turned it off for this agent). */
  sandboxed: boolean;
  /** Set when the command never ran: no sandbox could be had (one sentence saying how to get one). */
  refused?: string;
  /** Hosts the sandbox's proxy refused. */
  refused_hosts?: string[];
  /** The folders the sandbox hid (to recognise an error about one). */
  hidden?: string[];
  /** Sandboxed with no host allowed: any failed connection is the sandbox's doing. */
  offline?: boolean;
}

// What a sandboxed process sees when it tries what the sandbox forbids (bwrap: read-only mounts, an empty
// data dir, no network namespace; the proxy's 403; Seatbelt: "Operation not permitted").
const SANDBOX_SYMPTOM =
  /Read-only file system|Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|Operation not permitted|403 Forbidden/i;

const OFFLINE_SYMPTOM = /Connection refused|Failed to connect|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|getaddrinfo/i;

/** The honest note under a failed sandboxed command: what the sandbox refuses, when the failure looks like it. */
export function sandboxNote(o: BashOutcome): string | null {
  if (!o.sandboxed || o.timed_out || o.aborted) return null;
  // A refused host is always worth saying, even when the command carried on and exited 0.
  const hosts = o.refused_hosts?.length
    ? ` It refused network access to ${o.refused_hosts.join(', ')} (it reaches only well-formed host names in the agent's network allow list, and from them only public addresses unless a rule names the address).`
    : '';
  const hiddenPath = (o.hidden ?? []).some((h) => o.stderr.includes(h) || o.stdout.includes(h));
  const netFailure = o.offline === true && OFFLINE_SYMPTOM.test(o.stderr);
  if (!hosts && (o.exit_code === 0 || (!hiddenPath && !netFailure && !SANDBOX_SYMPTOM.test(o.stderr)))) return null;
  return `[sandbox: this command ran in NEXUS's OS sandbox: it may write only to its workspace and a private /tmp, cannot see NEXUS's data folder or other processes, and reaches only the hosts its profile allows. The error above may be the sandbox refusing.${hosts}]`;
}

export function bashResult(o: BashOutcome, timeout_s: number): ToolResult {
  if (o.refused !== undefined) {
    return {
      content: [{ type: 'text', text: o.refused }],
      structuredContent: { code: 'sandbox_unavailable', sandboxed: false, refused: o.refused },
      isError: true,
    };
  }
  const parts: string[] = [];
  if (o.stdout) parts.push(o.stdout.replace(/\n$/, ''));
  if (o.stderr) parts.push(`[stderr]\n${o.stderr.replace(/\n$/, '')}`);
  if (o.timed_out) parts.push(`[timed out after ${timeout_s} s; the command was killed]`);
  else if (o.aborted) parts.push('[stopped: the run was stopped]');
  else if (o.exit_code !== 0) parts.push(`[exit code ${o.exit_code ?? o.signal}]`);
  const note = sandboxNote(o);
  if (note) parts.push(note);
  if (!o.sandboxed) parts.push('[unsandboxed: the sandbox is turned off for this agent]');
  return {
    content: [{ type: 'text', text: parts.join('\n') || '(no output)' }],
    structuredContent: {
      exit_code: o.exit_code,
      signal: o.signal,
      timed_out: o.timed_out,
      duration_ms: o.duration_ms,
      stdout: o.stdout,
      stderr: o.stderr,
      sandboxed: o.sandboxed,
      ...(o.refused_hosts ? { refused_hosts: o.refused_hosts } : {}),
    },
    isError: o.exit_code !== 0,
  };
}
