// Domain types shared by the kernel, the doors and the window. Pure: no I/O here (DESIGN §1).

export const MODES = ['bypass', 'ask', 'rules'] as const;
export type Mode = (typeof MODES)[number];

export const VERDICTS = ['allow', 'ask', 'deny'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const ORIGINS = ['model', 'author', 'kernel'] as const;
export type Origin = (typeof ORIGINS)[number];

/** One approval rule exactly as the seed's grammar allows: at most these six keys. */
export interface ApprovalRule {
  tool: string;
  verdict: Verdict;
  path?: string;
  match?: string;
  reason?: string;
  origin?: Origin;
}

export const ROW_STATES = ['ready', 'needs_approval', 'running', 'succeeded', 'failed', 'timed_out', 'canceled'] as const;
export type RowState = (typeof ROW_STATES)[number];
export const TERMINAL_ROW_STATES: readonly RowState[] = ['succeeded', 'failed', 'timed_out', 'canceled'];

export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'canceled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export type GrantedBy = 'mode' | 'rule' | 'origin';

/** What the approval stage decided for one call. */
export type StageDecision =
  | { outcome: 'granted'; granted_by: GrantedBy; tool: string; matched: number[] }
  | { outcome: 'parked'; tool: string; matched: number[] }
  | { outcome: 'failed'; error: { code: 'approval_denied'; detail: string }; tool: string; matched: number[] };

/** What a row does when it fails or times out (seed: "under the row's own on_failure"). */
export type OnFailure = 'continue' | 'fail_run';

/** The text the next round reads when a park expires. Exact (seed 000). */
export const APPROVAL_EXPIRED_TEXT = 'Nobody approved this tool call before it expired.';
export const PARK_DURATION_MS = 24 * 60 * 60 * 1000;

/** MCP CallToolResult shape: every tool result, built-in or served, is carried in it. */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface HookSpec {
  tool: string;
  input: Record<string, unknown>;
  timeout_s?: number;
}
export interface LifecycleHooks {
  turn_start?: HookSpec[];
  pre_compact?: HookSpec[];
  post_compact?: HookSpec[];
  stop?: HookSpec[];
}

export interface ModelConfig {
  provider: 'chat-completions' | 'anthropic';
  baseURL: string;
  model: string;
  apiKeyEnv?: string;
  /** Stream replies (default true). */
  stream?: boolean;
  /** Idle timeout per model call, seconds. */
  timeout_s?: number;
  /** Reply length cap. */
  max_tokens?: number;
}

/** A runner's config as it starts: every secret in place. */
export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** Hosts this (stdio) server may reach from its sandbox; absent: no network. */
  network?: NetworkPolicy;
}

/** Hosts a sandboxed process may reach (through NEXUS's proxy): `api.github.com`, `*.example.com`. */
export interface NetworkPolicy {
  allow: string[];
}

/** Where a secret value was: the value itself lives outside the database and is never listed. */
export interface SecretSet {
  set: true;
}

/** A runner's config as a profile holds it: `env` values and `headers` are given as text, listed as SecretSet. */
export interface StoredMcpServerConfig extends Omit<McpServerConfig, 'env' | 'headers'> {
  env?: Record<string, string | SecretSet>;
  headers?: Record<string, string | SecretSet>;
}

/** An agent profile as `nexus agents add FILE` reads it (DESIGN §5). */
export interface AgentProfile {
  name: string;
  model: ModelConfig;
  instructions?: string;
  mode: Mode;
  approval_rules?: ApprovalRule[];
  lifecycle_hooks?: LifecycleHooks;
  tools?: string[];
  workspace?: string;
  mcpServers?: Record<string, StoredMcpServerConfig>;
  /** Conversation size (estimated tokens) past which compaction runs. */
  context_budget_tokens?: number;
  /** The runaway budget: model rounds, and rows (tool calls of every origin), a run may make before it ends. */
  max_rounds?: number;
  max_rows?: number;
  /** false: the person turned the OS sandbox off for this agent (its commands then run unconfined). */
  sandbox?: boolean;
  /** Hosts the agent's commands may reach; absent: no network at all. */
  network?: NetworkPolicy;
  /** Variables of the kernel's environment passed to the agent's commands (besides PATH, HOME, LANG, ...). */
  env_passthrough?: string[];
  /** A connected client (Claude Code, Codex) for one project: its calls come through the client's tool hook. */
  external?: { client: 'claude-code' | 'codex' | 'gemini' | 'opencode'; project: string };
  /** An agent NEXUS starts itself and speaks the Agent Client Protocol to (Gemini CLI, an adapter), inside its sandbox. */
  acp?: AcpAgentConfig;
}

/** How an ACP agent is started: its argv (run inside the agent's OS sandbox, in its workspace) and extra variables. */
export interface AcpAgentConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export type InboxKind = 'autonomy' | 'orchestration' | 'attention' | 'question';
/** An answer a card may take (the list and who takes which: shared/inbox/answers.ts). */
export type InboxAnswer = 'approve' | 'deny' | 'retry' | 'abandon' | 'answer';

// One inbox card (InboxItem) is its wire schema's type: shared/api/inbox.ts.

export interface EffectProfile {
  agent: string | null;
  tool: string;
  runner?: string;
  target: string;
  input: unknown;
  diff?: string;
  matched_rules: ApprovalRule[];
  workspace: string;
  mode: Mode;
  /** Present and false when the agent's commands run without the OS sandbox (the person turned it off). */
  sandboxed?: boolean;
  /** A connected client's call: which client, its session and the folder it works in. */
  client?: { name: string; session_id: string; folder: string; tool_name: string };
}

/**
 * The five verdict words of seed 003, and only those. A hop that did not proceed for a cause other than a
 * person's answer or one of the six denials keeps one of the five and says its cause in `code` (HOP_CAUSE_CODES).
 */
export const HOP_VERDICTS = ['allowed', 'awaiting_approval', 'approved', 'refused', 'denied'] as const;
export type HopVerdict = (typeof HOP_VERDICTS)[number];

export const ORCHESTRATION_CODES = [
  'orchestration_stopped',
  'orchestration_not_entitled',
  'orchestration_disabled',
  'orchestrator_not_allowed',
  'chain_depth_exceeded',
  'chain_agents_exceeded',
] as const;
export type OrchestrationCode = (typeof ORCHESTRATION_CODES)[number];
/**
 * Why a held hop was `refused` when no person refused it: its run was stopped before anyone answered, its
 * delegated task was closed (a restart canceled it), or nobody answered within 24 hours.
 */
export const HOP_CAUSE_CODES = ['run_stopped', 'task_canceled', 'approval_expired'] as const;
export type HopCauseCode = (typeof HOP_CAUSE_CODES)[number];
/** A hop's `code`: one of the six denials (verdict `denied`) or a refusal's cause (verdict `refused`). */
export type HopCode = OrchestrationCode | HopCauseCode;

export interface ChainHopView {
  hop: number;
  agent: string;
  action: string;
  target: string;
  verdict: HopVerdict;
  code?: HopCode;
  request_id?: string;
  at: string;
}
export interface ChainView {
  chain_id: string;
  agents: string[];
  hops: ChainHopView[];
  last_active_at: string;
}

export interface Settings {
  'orchestration.enabled': boolean;
  'orchestration.maxDepth': number;
  'orchestration.maxAgents': number;
  'orchestration.allowlist': string[];
  'orchestration.perHopApproval': boolean;
  'orchestration.stopAll': boolean;
  'approval.stopHookCap': number;
  'delegation.maxRefusals': number;
  /** A connected client's session with no call for this long ends (its run succeeds). */
  'clients.idleMinutes': number;
}

export const DEFAULT_SETTINGS: Settings = {
  'orchestration.enabled': false,
  'orchestration.maxDepth': 3,
  'orchestration.maxAgents': 4,
  'orchestration.allowlist': [],
  'orchestration.perHopApproval': true,
  'orchestration.stopAll': false,
  'approval.stopHookCap': 3,
  'delegation.maxRefusals': 3,
  'clients.idleMinutes': 30,
};
