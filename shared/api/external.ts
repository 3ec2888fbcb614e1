// Connected clients (Claude Code, Codex): their tool hook asks the stage through `externalToolUse`; the window's
// Settings ▸ Connections reads and changes where NEXUS is installed as their hook. Pure: no I/O.
import { z } from 'zod';
import { hookMethod, method, readMethod, strict } from './contract.js';
import { RunStatus } from './common.js';

export const ClientName = z.enum(['claude-code', 'codex', 'gemini', 'opencode']);

/** What a client's hook received on stdin (fields NEXUS reads; the rest is ignored), plus where it came from. */
export const HookEvent = z.object({
  session_id: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096),
  hook_event_name: z.enum(['PreToolUse', 'PermissionRequest']),
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown(),
  tool_use_id: z.string().max(200).optional(),
  /** Codex: null with --ephemeral (no rollout file). */
  transcript_path: z.string().max(4096).nullable().optional(),
  /** Codex: the turn, whose turn_context in the rollout names the sandbox policy the call runs under. */
  turn_id: z.string().max(200).optional(),
  permission_mode: z.string().max(64).optional(),
  /** Claude Code: set when a subagent (a Task agent) makes the call. */
  agent_id: z.string().max(200).optional(),
  agent_type: z.string().max(200).optional(),
});

/** The client's SessionEnd hook (Claude Code and Codex send the same fields). */
export const SessionEndEvent = z.object({
  session_id: z.string().min(1).max(200),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.literal('SessionEnd'),
  /** Why the client ended it (Claude Code: clear, logout, prompt_input_exit, other; Codex: other). */
  reason: z.string().max(200).optional(),
});

export const ExternalAnswer = z.object({
  decision: z.enum(['allow', 'deny']),
  /** What the model reads on a deny (and the client shows on an allow). */
  reason: z.string(),
  /** Who decided: rule, mode, person, trust, expiry, stop_all, nexus. */
  by: z.string(),
  agent: z.string().nullable(),
  run_id: z.string().nullable(),
  row_ids: z.array(z.string()),
});

export const ConnectionScope = z.enum(['user', 'project']);
export const ConnectionTarget = strict({
  client: ClientName,
  scope: ConnectionScope.default('user'),
  /** For scope project (Claude Code): the project folder, absolute. */
  project: z.string().max(4096).optional(),
});
export const ConnectionView = z.object({
  client: ClientName,
  scope: ConnectionScope,
  file: z.string(),
  connected: z.boolean(),
  /** Connected to THIS data dir (another data dir's hook counts as connected elsewhere). */
  here: z.boolean(),
  note: z.string().optional(),
});
export const ConnectionPlan = z.object({
  client: ClientName,
  scope: ConnectionScope,
  file: z.string(),
  action: z.enum(['connect', 'disconnect']),
  /** The file before and after, as text, and a unified diff of the change. */
  before: z.string(),
  after: z.string(),
  diff: z.string(),
  changed: z.boolean(),
  notes: z.array(z.string()),
});

export const externalMethods = {
  externalToolUse: hookMethod(
    strict({
      client: ClientName,
      event: HookEvent,
      wait_ms: z.number().int().min(1000).max(86_400_000).optional(),
      project_dir: z.string().max(4096).optional(),
    }),
    ExternalAnswer,
    "A connected client's tool hook: the call crosses the approval stage; a held call waits for a person.",
  ),
  externalSessionEnd: hookMethod(
    strict({ client: ClientName, event: SessionEndEvent }),
    z.object({ run_id: z.string().nullable(), status: RunStatus.nullable() }),
    "A connected client's session ended (its SessionEnd hook): the session's run ends, succeeded.",
  ),
  connectionsList: readMethod(strict({}).default({}), z.array(ConnectionView), 'Where NEXUS is installed as the tool hook of Claude Code and Codex.'),
  connectionsPlan: method(
    ConnectionTarget.extend({ action: z.enum(['connect', 'disconnect']) }),
    ConnectionPlan,
    'The change connect or disconnect would make, without writing.',
  ),
  connectionsApply: method(
    ConnectionTarget.extend({ action: z.enum(['connect', 'disconnect']) }),
    ConnectionPlan,
    'Connect or disconnect a client (writes its settings file).',
  ),
};
