// Runs, rows, the inbox and agents. Owned by the kernel work (electron/kernel, electron/store).
import { z } from 'zod';
import { INBOX_ANSWERS } from '../inbox/answers.js';
import { method, readMethod, strict } from './contract.js';
import { ClientName } from './external.js';
import { Id, Mode, Name, Origin, PAGE_MAX, PageInput, RowState, RunStatus, ToolResult, RuleWarning, pageOf } from './common.js';
import { isNetworkRule, NETWORK_RULE_HINT } from '../net/host.js';
import { ApprovalRuleView, approvalRules, EffectProfileView, LifecycleHooksInput, LifecycleHooksView } from './approval.js';

export const RowView = strict({
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
  error: strict({ code: z.string(), detail: z.string() }).nullable().optional(),
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
export const RunSummary = strict({
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
  /** A connected client's session (Claude Code, Codex): the calls came through its tool hook. */
  client: z
    .object({
      name: z.string(),
      session_id: z.string(),
      /** The session's working folder (its cwd at the first call). */
      folder: z.string().optional(),
      /** The session's newest call (the tool as NEXUS judged it), or null before any. */
      last_call: strict({ tool: z.string(), at: z.string() }).nullable().optional(),
    })
    .optional(),
  /** Pending orchestration holds this run waits on (its own, or inside the delegation it waits for). */
  waiting_on: z
    .array(strict({ request_id: z.string(), hop: z.number().int(), agent: z.string(), tool: z.string(), target: z.string(), expires_at: z.string() }))
    .optional(),
});
export const RunEvent = strict({ type: z.string(), at: z.string(), data: z.unknown() });
export const RunDetail = RunSummary.extend({
  rules: z.array(ApprovalRuleView),
  /** The runaway budget: what the run has used and its limits (its agent's max_rounds / max_rows, or the defaults). */
  budget: strict({ rounds: z.number().int(), rows: z.number().int(), max_rounds: z.number().int(), max_rows: z.number().int() }).optional(),
  workspace: z.string(),
  /** The first page of the run's rows, in order (runsRows reads the next ones from rows_next_cursor). */
  rows: z.array(RowView),
  /** Where the next page of rows starts (runsRows), or null: `rows` holds every row. */
  rows_next_cursor: z.string().nullable().optional(),
  messages: z.array(z.unknown()).optional(),
  /** The first page of the run's timeline (runsEvents reads the rest from events_next_cursor). */
  events: z.array(RunEvent).optional(),
  events_next_cursor: z.string().nullable().optional(),
});
/** How many rows and events runsShow carries when the caller does not say. */
export const RUN_DETAIL_PAGE = 200;

export const InboxItem = strict({
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
  effect: EffectProfileView.optional(),
  message: z.string().optional(),
  trustable: z.boolean().optional(),
  /** The answers this card accepts: only these are offered, and only these are carried out. */
  answers: z.array(z.enum(INBOX_ANSWERS)).optional(),
  /** A connected client's call that asks to leave its own sandbox: why, in one sentence. Never trusted or made a rule. */
  escape: z.string().optional(),
  /** A connected client's call: what contains its commands (the client's own sandbox). */
  containment: z.string().optional(),
  /** The executor application a held row waits on, when one is named (null: its executor was revoked). */
  addressee: z.string().nullable().optional(),
});
/** One inbox card (DESIGN §5 `inbox --json`; more fields are welcome): the type is the schema's. */
export type InboxItem = z.infer<typeof InboxItem>;

/** A host a sandboxed command may reach: a DNS name, `*.` and a DNS name (every subdomain), or an IP address. */
export const NetworkHost = z.string().max(253).refine(isNetworkRule, NETWORK_RULE_HINT);
export const NetworkPolicy = strict({ allow: z.array(NetworkHost).max(100) }).strict();
/** A variable passed through to an agent's commands; NEXUS's own (NEXUS_*) never are. */
export const EnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
  .refine((n) => !/^NEXUS_/i.test(n), 'NEXUS_* variables are never passed to an agent');
/** Where a secret was: listed instead of its value; saved back, it keeps the stored value. */
export const SecretSet = strict({ set: z.literal(true) }).strict();
/** An MCP `env` value or header: the value itself (stored outside the database), or SecretSet to keep it. */
const SecretValue = z.union([z.string(), SecretSet]);
/** An MCP server as the ecosystem's `mcpServers` JSON has it; `secret` is what an `env` value or header may be. */
const mcpServer = <S extends z.ZodType>(secret: S) =>
  strict({
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), secret).optional(),
    url: z.string().url().optional(),
    headers: z.record(z.string(), secret).optional(),
    network: NetworkPolicy.optional(),
  });
/** How many pending cards a filter selects, grouped by agent, run and chain. */
export const InboxSummary = strict({
  total: z.number().int(),
  by_agent: z.array(strict({ key: z.string().nullable(), count: z.number().int() })),
  by_run: z.array(strict({ key: z.string(), agent: z.string().nullable(), count: z.number().int() })),
  by_chain: z.array(strict({ key: z.string(), count: z.number().int() })),
});
export type InboxSummary = z.infer<typeof InboxSummary>;

/** Narrows the pending cards (AND of the fields given). */
export const InboxFilter = strict({
  agent: z.string().max(200).nullable().optional(),
  kind: z.enum(['autonomy', 'orchestration', 'attention', 'question']).optional(),
  run_id: Id.optional(),
  chain_id: Id.optional(),
  /** Part of the tool name or target, any case. */
  text: z.string().max(500).optional(),
});

export const AgentProfileInput = strict({
  name: Name,
  model: strict({
    provider: z.enum(['chat-completions', 'anthropic']),
    baseURL: z.string().url(),
    model: z.string().min(1),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional(),
    /** AGENTS: stream replies (default true); idle timeout per model call; reply length cap. */
    stream: z.boolean().optional(),
    timeout_s: z.number().positive().max(3600).optional(),
    max_tokens: z.number().int().positive().max(1_000_000).optional(),
  }),
  /** AGENTS: compaction budget in estimated tokens (~4 chars each); default 24,000. */
  context_budget_tokens: z.number().int().min(200).max(10_000_000).optional(),
  /** The runaway budget of each run: model rounds (default 200) and rows (default 2,000); reached, the run ends. */
  max_rounds: z.number().int().min(1).max(100_000).optional(),
  max_rows: z.number().int().min(1).max(1_000_000).optional(),
  instructions: z.string().optional(),
  mode: Mode,
  /** Any JSON list, checked by the rule language's validator: each error is reported at its rule and key. */
  approval_rules: approvalRules('approval_rules are invalid').optional(),
  lifecycle_hooks: LifecycleHooksInput.optional(),
  tools: z.array(z.string().min(1)).optional(),
  workspace: z.string().optional(),
  /** A connected client for one project (its runs start when the client calls a tool). */
  external: strict({ client: z.enum(['claude-code', 'codex', 'gemini', 'opencode']), project: z.string().min(1).max(4096) }).optional(),
  /** An ACP agent NEXUS starts in its sandbox and speaks the Agent Client Protocol to (docs/acp-agents.md). */
  acp: z
    .strictObject({
      command: z.string().min(1).max(4096),
      args: z.array(z.string().max(4096)).max(64).optional(),
      env: z.record(EnvName, z.string().max(8192)).optional(),
    })
    .optional(),
  mcpServers: z.record(z.string(), mcpServer(SecretValue)).optional(),
  /** false turns the OS sandbox off for this agent: its commands see and may change everything the user may. */
  sandbox: z.boolean().optional(),
  network: NetworkPolicy.optional(),
  env_passthrough: z.array(EnvName).max(64).optional(),
});
export const AgentView = AgentProfileInput.extend({
  approval_rules: z.array(ApprovalRuleView).optional(),
  lifecycle_hooks: LifecycleHooksView.optional(),
  /** Secrets are never listed: each `env` value and header reads { "set": true }. */
  mcpServers: z.record(z.string(), mcpServer(SecretSet)).optional(),
  status: z.enum(['active', 'removed']),
  created_at: z.string(),
  updated_at: z.string(),
});

/** An answered card: its state now; for another desk machine's card, that machine (it applies the first answer). */
const InboxAnswered = strict({ id: Id, state: z.string(), machine: z.string().optional() });

/** One session-trust grant as the doors show it (shared/trust.ts holds the kernel's shape). */
export const TrustGrantView = strict({
  id: Id,
  agent: z.string(),
  scope: z.discriminatedUnion('kind', [
    strict({ kind: z.literal('agent') }),
    strict({ kind: z.literal('call'), tool: z.string(), key: z.string(), text: z.string() }),
  ]),
  /** What the grant lets through, in one sentence. */
  covers: z.string(),
  granted_at: z.string(),
  by: z.string(),
  /** When it ends: always when this NEXUS process quits (session trust is never stored). */
  ends: z.literal('when NEXUS quits'),
});

export const kernelMethods = {
  status: readMethod(
    strict({}).default({}),
    strict({
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
  agentsList: readMethod(strict({}).default({}), z.array(AgentView), 'List agent profiles.'),
  agentsGet: readMethod(strict({ name: Name }), AgentView, 'One agent profile.'),
  agentsCreate: method(
    AgentProfileInput,
    strict({ agent: AgentView, warnings: z.array(RuleWarning) }),
    'Create an agent profile; `conflict` when an active agent has that name (nothing is changed).',
  ),
  agentsReplace: method(
    AgentProfileInput,
    strict({ agent: AgentView, warnings: z.array(RuleWarning) }),
    'Replace an active agent profile; `not_found` when no active agent has that name (nothing is created).',
  ),
  agentsSave: method(
    AgentProfileInput,
    strict({ agent: AgentView, warnings: z.array(RuleWarning), replaced: z.boolean() }),
    'Create or replace an agent profile (replaced: an active profile of that name was overwritten). `nexus agents add` keeps this; a caller that knows which it means uses agentsCreate or agentsReplace.',
  ),
  agentsRemove: method(strict({ name: Name }), strict({ removed: z.boolean(), runs_stopped: z.number().int() }), 'Remove an agent.'),
  runsList: readMethod(
    z
      .object({
        limit: z.number().int().min(1).max(1000).default(100),
        /** The id of the last run of the previous page: the page starts after it. */
        cursor: Id.optional(),
        /** Only this agent's runs. */
        agent: z.string().min(1).max(200).optional(),
        /** Only runs in this state. */
        status: RunStatus.optional(),
        /** Only this connected client's sessions, or `none`: the runs no client made (NEXUS's agents, standalone runs). */
        client: z.enum([...ClientName.options, 'none']).optional(),
      })
      .default({ limit: 100 }),
    z.array(RunSummary),
    'List runs, newest first (a page: limit, and cursor = the last id seen; a full page may have more after it), optionally of one agent, state or client.',
  ),
  runsShow: readMethod(
    strict({ id: Id, rows_limit: z.number().int().min(1).max(PAGE_MAX).optional(), events_limit: z.number().int().min(1).max(PAGE_MAX).optional() }),
    RunDetail,
    `One run with the first page of its rows and events (default ${RUN_DETAIL_PAGE} each; runsRows and runsEvents page on).`,
  ),
  runsRows: readMethod(
    strict({ run_id: Id, ...PageInput }),
    pageOf(RowView),
    `A page of a run's rows in order (limit default ${RUN_DETAIL_PAGE}, max ${PAGE_MAX}).`,
  ),
  runsEvents: readMethod(
    strict({ run_id: Id, ...PageInput }),
    pageOf(RunEvent),
    `A page of a run's timeline in order (limit default ${RUN_DETAIL_PAGE}, max ${PAGE_MAX}).`,
  ),
  runsStart: method(
    strict({ agent: Name, prompt: z.string().min(1), mode: Mode.optional(), extra_rules: approvalRules('extra_rules are invalid').optional() }),
    RunSummary,
    "Start a turn for an agent (the request may tighten, never loosen, the profile's approval).",
  ),
  runsCreate: method(
    strict({ mode: Mode, rules: approvalRules('The approval rules are invalid').optional(), workspace: z.string().optional() }),
    RunSummary,
    "Create a person's standalone run.",
  ),
  runsAppend: method(
    strict({ run_id: Id, tool: z.string().min(1), input: z.unknown().default({}) }),
    RowView,
    'Append an author row to a run (the tasks door).',
  ),
  runsStop: method(strict({ id: Id }), RunSummary, 'Force-stop a run: rows and hook work canceled, nothing asked.'),
  rowsWait: readMethod(
    strict({ id: Id, timeout_ms: z.number().int().min(0).max(600_000).default(30_000) }),
    RowView,
    'Wait until a row leaves ready/needs_approval/running, or the timeout passes.',
  ),
  inboxList: readMethod(
    InboxFilter.extend({
      /** At most this many cards (no limit: every pending card, as the CLI reads them). */
      limit: z.number().int().min(1).max(10_000).optional(),
      /** The id of the last card of the previous page: the page starts after it. */
      cursor: Id.optional(),
    }).default({}),
    z.array(InboxItem),
    'Pending cards, oldest first (optionally a page: limit, and cursor = the last id seen; optionally filtered).',
  ),
  inboxSummary: readMethod(InboxFilter.default({}), InboxSummary, 'How many pending cards a filter selects, grouped by agent, run and chain.'),
  inboxIds: readMethod(InboxFilter.default({}), z.array(Id), 'The ids of every pending card a filter selects, oldest first.'),
  inboxBulk: method(
    strict({ ids: z.array(Id).min(1).max(10_000), action: z.enum(['approve', 'deny']), reason: z.string().max(4096).optional() }),
    strict({ done: z.array(Id), failed: z.array(strict({ id: Id, message: z.string() })) }),
    'Approve or deny many cards at once (each answered as if alone; one that cannot be is reported, not fatal).',
  ),
  inboxContext: readMethod(
    strict({ id: Id }),
    strict({
      /** What the agent said in the round that made this call (its assistant text), or null. */
      said: z.string().nullable(),
      round: z.number().int().nullable(),
      run: strict({ id: Id, agent: z.string().nullable(), created_at: z.string(), status: RunStatus }).nullable(),
    }),
    'Why a card exists: what the agent said just before the call, and its run.',
  ),
  inboxApprove: method(
    strict({
      id: Id,
      trust_session: z.boolean().default(false),
      /** With trust_session: the whole agent (the default) or only calls like this one (same tool, same command or path). */
      trust_scope: z.enum(['agent', 'call']).optional(),
    }),
    InboxAnswered,
    "Approve a card (autonomy or orchestration); on a desk machine also another machine's card (sent to its owner).",
  ),
  inboxDeny: method(strict({ id: Id, reason: z.string().max(4096).optional() }), InboxAnswered, 'Deny a card (on a desk machine: any desk card).'),
  inboxRetry: method(strict({ id: Id }), strict({ id: Id, state: z.string() }), 'Retry a failed hook (attention item).'),
  inboxAbandon: method(strict({ id: Id }), strict({ id: Id, state: z.string() }), 'Abandon a failed hook (attention item).'),
  inboxAnswer: method(strict({ id: Id, text: z.string().max(65536) }), strict({ id: Id, state: z.string() }), "Answer an agent's question (the ask tool)."),
  trustList: readMethod(
    strict({ agent: Name.optional() }).default({}),
    strict({ grants: z.array(TrustGrantView) }),
    "The standing 'Trust for this session' grants, oldest first: each one's agent, scope and end (when NEXUS quits).",
  ),
  trustRevoke: method(
    strict({ agent: Name.optional(), id: Id.optional() }).refine((v) => (v.agent === undefined) !== (v.id === undefined), 'give agent or id, not both'),
    strict({ agent: z.string(), revoked: z.boolean(), count: z.number().int().optional() }),
    "Take back 'Trust for this session': every grant of an agent, or one grant by id. Its later parks wait for a person again (revoked: something was trusted).",
  ),
  executorsRevoke: method(
    strict({ agent: Name }),
    strict({ readdressed: z.number().int() }),
    "Revoke an agent's executor application: its held rows lose their addressee.",
  ),
};
