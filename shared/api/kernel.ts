// Runs, rows, the inbox and agents: the kernel's methods. Owned by the kernel work (electron/kernel, electron/store);
// the schemas they carry live in runs.ts, inbox.ts and agents.ts.
import { z } from 'zod';
import { method, readMethod, strict } from './contract.js';
import { ClientName } from './external.js';
import { Id, Mode, Name, PAGE_MAX, PageInput, RunStatus, RuleWarning, pageOf } from './common.js';
import { approvalRules } from './approval.js';
import { RowView, RunDetail, RunEvent, RunSummary, RUN_DETAIL_PAGE } from './runs.js';
import { InboxAnswered, InboxFilter, InboxItem, InboxSummary } from './inbox.js';
import { AgentProfileInput, AgentView } from './agents.js';

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
