// Runs, rows, the inbox and agents. Owned by the kernel work (electron/kernel, electron/store).
import { z } from 'zod';
import { method } from './contract.js';
import { Id, Mode, Name, Origin, RowState, RunStatus, ToolResult, RuleWarning } from './common.js';

export const RowView = z.object({
  id: Id,
  run_id: Id,
  origin: Origin,
  tool: z.string(),
  /** The wire name the call used, when it differs from the resolved tool. */
  wire_tool: z.string().optional(),
  runner: z.string().nullable().optional(),
  input: z.unknown(),
  state: RowState,
  round: z.number().int().nullable().optional(),
  granted_by: z.enum(['mode', 'rule', 'origin', 'person', 'trust']).nullable().optional(),
  approved_by: z.string().nullable().optional(),
  error: z.object({ code: z.string(), detail: z.string() }).nullable().optional(),
  result: ToolResult.nullable().optional(),
  expires_at: z.string().nullable().optional(),
  /** What a failure or timeout does: continue the run, or fail it. */
  on_failure: z.enum(['continue', 'fail_run']).optional(),
  /** Who a parked row waits on (`executor:<agent>`), or null: the person's door. */
  addressee: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable().optional(),
  ended_at: z.string().nullable().optional(),
});
export const RunSummary = z.object({
  id: Id,
  agent: z.string().nullable(),
  status: RunStatus,
  mode: Mode,
  prompt: z.string().nullable().optional(),
  final_answer: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  chain_id: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  pending: z.number().int().optional(),
  /** Pending orchestration holds this run waits on (its own, or inside the delegation it waits for). */
  waiting_on: z.array(z.object({ request_id: z.string(), hop: z.number().int(), agent: z.string(), tool: z.string(), target: z.string(), expires_at: z.string() })).optional(),
});
export const RunDetail = RunSummary.extend({
  rules: z.array(z.unknown()),
  workspace: z.string(),
  rows: z.array(RowView),
  messages: z.array(z.unknown()).optional(),
  events: z.array(z.object({ type: z.string(), at: z.string(), data: z.unknown() })).optional(),
});

export const InboxItem = z.object({
  id: Id,
  kind: z.enum(['autonomy', 'orchestration', 'attention', 'question']),
  agent: z.string().nullable(),
  tool: z.string(),
  target: z.string(),
  run_id: Id,
  row_id: z.string().optional(),
  hop: z.number().int().optional(),
  chain_id: z.string().optional(),
  expires_at: z.string().optional(),
  created_at: z.string(),
  effect: z.unknown().optional(),
  message: z.string().optional(),
  trustable: z.boolean().optional(),
});

export const AgentProfileInput = z.object({
  name: Name,
  model: z.object({
    provider: z.enum(['chat-completions', 'anthropic']),
    baseURL: z.string().url(),
    model: z.string().min(1),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** AGENTS: stream replies (default true); idle timeout per model call; reply length cap. */
    stream: z.boolean().optional(),
    timeout_s: z.number().positive().max(3600).optional(),
    max_tokens: z.number().int().positive().max(1_000_000).optional(),
  }),
  /** AGENTS: compaction budget in estimated tokens (~4 chars each); default 24,000. */
  context_budget_tokens: z.number().int().min(200).max(10_000_000).optional(),
  instructions: z.string().optional(),
  mode: Mode,
  approval_rules: z.unknown().optional(),
  lifecycle_hooks: z.unknown().optional(),
  tools: z.array(z.string().min(1)).optional(),
  workspace: z.string().optional(),
  mcpServers: z
    .record(
      z.string(),
      z.object({
        command: z.string().optional(),
        args: z.array(z.string()).optional(),
        env: z.record(z.string(), z.string()).optional(),
        url: z.string().url().optional(),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
});
export const AgentView = AgentProfileInput.extend({
  status: z.enum(['active', 'removed']),
  created_at: z.string(),
  updated_at: z.string(),
});

export const kernelMethods = {
  status: method(
    z.object({}).default({}),
    z.object({
      version: z.string(),
      data_dir: z.string(),
      pending: z.number().int(),
      runs_in_flight: z.number().int(),
      stop_all: z.boolean(),
      /** Agents trusted for this session ("Trust for this session" on an approval); in memory, by name. */
      trusted_agents: z.array(z.string()).optional(),
      /** The testing time override of `nexus serve` (NEXUS_CLOCK_OFFSET_MS under NEXUS_TESTING=1), when set. */
      clock_offset_ms: z.number().int().optional(),
    }),
    'Kernel status.',
  ),
  agentsList: method(z.object({}).default({}), z.array(AgentView), 'List agent profiles.'),
  agentsGet: method(z.object({ name: Name }), AgentView, 'One agent profile.'),
  agentsSave: method(
    AgentProfileInput,
    z.object({ agent: AgentView, warnings: z.array(RuleWarning), replaced: z.boolean() }),
    'Create or replace an agent profile (replaced: an active profile of that name was overwritten).',
  ),
  agentsRemove: method(z.object({ name: Name }), z.object({ removed: z.boolean(), runs_stopped: z.number().int() }), 'Remove an agent.'),
  runsList: method(z.object({ limit: z.number().int().min(1).max(1000).default(100) }).default({ limit: 100 }), z.array(RunSummary), 'List runs.'),
  runsShow: method(z.object({ id: Id }), RunDetail, 'One run with its rows.'),
  runsStart: method(
    z.object({ agent: Name, prompt: z.string().min(1), mode: Mode.optional(), extra_rules: z.unknown().optional() }),
    RunSummary,
    "Start a turn for an agent (the request may tighten, never loosen, the profile's approval).",
  ),
  runsCreate: method(
    z.object({ mode: Mode, rules: z.unknown().optional(), workspace: z.string().optional() }),
    RunSummary,
    "Create a person's standalone run.",
  ),
  runsAppend: method(
    z.object({ run_id: Id, tool: z.string().min(1), input: z.unknown().default({}) }),
    RowView,
    'Append an author row to a run (the tasks door).',
  ),
  runsStop: method(z.object({ id: Id }), RunSummary, 'Force-stop a run: rows and hook work canceled, nothing asked.'),
  rowsWait: method(
    z.object({ id: Id, timeout_ms: z.number().int().min(0).max(600_000).default(30_000) }),
    RowView,
    'Wait until a row leaves ready/needs_approval/running, or the timeout passes.',
  ),
  inboxList: method(z.object({}).default({}), z.array(InboxItem), 'Pending cards, oldest first.'),
  inboxApprove: method(
    z.object({ id: Id, trust_session: z.boolean().default(false) }),
    z.object({ id: Id, state: z.string() }),
    'Approve a card (autonomy or orchestration).',
  ),
  inboxDeny: method(z.object({ id: Id, reason: z.string().max(4096).optional() }), z.object({ id: Id, state: z.string() }), 'Deny a card.'),
  inboxRetry: method(z.object({ id: Id }), z.object({ id: Id, state: z.string() }), 'Retry a failed hook (attention item).'),
  inboxAbandon: method(z.object({ id: Id }), z.object({ id: Id, state: z.string() }), 'Abandon a failed hook (attention item).'),
  inboxAnswer: method(z.object({ id: Id, text: z.string().max(65536) }), z.object({ id: Id, state: z.string() }), "Answer an agent's question (the ask tool)."),
  trustRevoke: method(
    z.object({ agent: Name }),
    z.object({ agent: z.string(), revoked: z.boolean() }),
    "Take back 'Trust for this session' for an agent: its later parks wait for a person again (revoked: it was trusted).",
  ),
  executorsRevoke: method(z.object({ agent: Name }), z.object({ readdressed: z.number().int() }), "Revoke an agent's executor application: its held rows lose their addressee."),
};
