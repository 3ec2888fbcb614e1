// The kernel's methods of the API (shared/api/kernel.ts), except runsStart (turns provide it). runsShow carries
// the run's conversation (what the model read and said) as well as its rows and events.
import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import type { Handlers } from './dispatch.js';
import { ApiFailure, personBy } from './dispatch.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Clock } from '../kernel/clock.js';
import type { Db } from '../store/db.js';
import type { WaitingOn } from '../governance/hold-clock.js';
import {
  RUN_DETAIL_PAGE,
  type AgentProfileInput,
  type AgentView,
  type InboxFilter,
  type InboxItem,
  type RowView,
  type RunDetail,
  type RunSummary,
} from '../../shared/api/kernel.js';
import { countRunsInFlight, listRunsPage } from '../store/queries/runs.js';
import { countParkedOfRun, listRowsOfRunPage } from '../store/queries/rows.js';
import { listRunEventsPage } from '../store/queries/events.js';
import {
  inboxWire,
  listPendingInboxPage,
  pendingInboxIds,
  summarizePendingInbox,
  type InboxEntry,
  type InboxFilter as InboxQueryFilter,
} from '../store/queries/inbox.js';
import { allMessages, assistantTextOfRound } from '../kernel/turns/conversation-store.js';
import { getAgent, type AgentRow } from '../store/queries/agents.js';
import { getAgentProfile, listAgentProfiles, removeAgent, revokeExecutor, saveAgent } from '../kernel/agents.js';
import type { Row, Run } from '../kernel/types.js';

import { NEXUS_VERSION } from '../../shared/version.js';

type KernelMethods =
  | 'status'
  | 'agentsList'
  | 'agentsGet'
  | 'agentsSave'
  | 'agentsCreate'
  | 'agentsReplace'
  | 'agentsRemove'
  | 'runsList'
  | 'runsShow'
  | 'runsRows'
  | 'runsEvents'
  | 'runsCreate'
  | 'runsAppend'
  | 'runsStop'
  | 'rowsWait'
  | 'inboxList'
  | 'inboxSummary'
  | 'inboxIds'
  | 'inboxBulk'
  | 'inboxContext'
  | 'inboxApprove'
  | 'inboxDeny'
  | 'inboxRetry'
  | 'inboxAbandon'
  | 'inboxAnswer'
  | 'executorsRevoke'
  | 'trustRevoke';

export const rowView = (r: Row): z.infer<typeof RowView> => ({
  id: r.id,
  run_id: r.run_id,
  origin: r.origin,
  tool: r.tool,
  ...(r.wire_tool !== r.tool ? { wire_tool: r.wire_tool } : {}),
  runner: r.runner,
  input: r.input,
  state: r.state,
  round: r.round,
  granted_by: r.granted_by,
  approved_by: r.approved_by,
  error: r.error,
  result: r.result,
  expires_at: r.expires_at,
  on_failure: r.on_failure,
  addressee: r.addressee,
  created_at: r.created_at,
  updated_at: r.updated_at,
  started_at: r.started_at,
  ended_at: r.ended_at,
});

export const runSummary = (r: Run, pending?: number): z.infer<typeof RunSummary> => ({
  id: r.id,
  agent: r.agent,
  status: r.status,
  mode: r.mode,
  prompt: r.prompt,
  final_answer: r.final_answer,
  error: r.error,
  chain_id: r.chain_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
  ...(pending !== undefined ? { pending } : {}),
  ...(r.created_by?.startsWith('client:') ? { client: clientOf(r.created_by) } : {}),
});

/** `client:<name>:<session id>` → the client and its session. */
const clientOf = (createdBy: string) => {
  const [name = '', ...rest] = createdBy.slice('client:'.length).split(':');
  return { name, session_id: rest.join(':') };
};

/** A run waiting on an orchestration hold says which (request id, hop): it does not read as done. */
const withWaiting = (s: z.infer<typeof RunSummary>, waiting: Map<string, z.infer<typeof RunSummary>['waiting_on'] & object>) => {
  const w = waiting.get(s.id);
  return w?.length ? { ...s, waiting_on: w } : s;
};

export const inboxView = (i: InboxEntry): z.infer<typeof InboxItem> => inboxWire(i);

/** A filter as the store reads it: only the fields given. */
const filterOf = (f: z.infer<typeof InboxFilter>): InboxQueryFilter => {
  const out: InboxQueryFilter = {};
  if (f.agent !== undefined) out.agent = f.agent;
  if (f.kind !== undefined) out.kind = f.kind;
  if (f.run_id !== undefined) out.run_id = f.run_id;
  if (f.chain_id !== undefined) out.chain_id = f.chain_id;
  if (f.text !== undefined && f.text.trim()) out.text = f.text.trim();
  return out;
};

/** A stored secret is listed as where it was, never as its value: every `env` value and header reads
 *  { set: true }, also one that somehow reached the store as text. */
const listedSecrets = (m: Record<string, unknown> | undefined) => (m ? Object.fromEntries(Object.keys(m).map((k) => [k, { set: true as const }])) : undefined);

/** A profile as the API lists it: the stored profile with its status and times; the store's own flags stay in. */
const agentView = (a: AgentRow): z.infer<typeof AgentView> => {
  const { status, created_at, updated_at, credentials_fenced: _fenced, executor_revoked: _revoked, mcpServers, ...profile } = a;
  const view: z.infer<typeof AgentView> = { ...profile, status, created_at, updated_at };
  if (mcpServers) {
    view.mcpServers = Object.fromEntries(
      Object.entries(mcpServers).map(([name, { env, headers, ...server }]) => {
        const listed: NonNullable<z.infer<typeof AgentView>['mcpServers']>[string] = { ...server };
        if (env) listed.env = listedSecrets(env);
        if (headers) listed.headers = listedSecrets(headers);
        return [name, listed];
      }),
    );
  }
  return view;
};

const WORKSPACE_NOT_ABSOLUTE = () =>
  new ApiFailure('invalid_input', 'workspace must be an absolute path', [{ path: 'workspace', message: 'must be an absolute path' }]);

/** Save a profile the way agentsSave, agentsCreate and agentsReplace all do (the kernel checks rules, hooks
 *  and secrets); `replaced`: an active profile of that name was overwritten. */
function saveAgentProfile(kernel: Kernel, input: z.output<typeof AgentProfileInput>) {
  if (input.workspace !== undefined && !isAbsolute(input.workspace)) throw WORKSPACE_NOT_ABSOLUTE();
  const { agent, warnings, replaced } = saveAgent(kernel, input);
  return { agent: agentView(agent), warnings, replaced };
}

/** The next cursor of a page: the last item's key when the page came back full (more may follow), else null. */
const nextCursor = <T>(items: readonly T[], limit: number, key: (item: T) => string): string | null =>
  items.length === limit && items.length ? key(items[items.length - 1]) : null;

/** A page of a run's rows; a cursor that is not one of its rows is refused, not read as the start. */
function rowsPage(db: Db, run_id: string, limit: number, cursor?: string) {
  const rows = listRowsOfRunPage(db, { run_id, limit, cursor });
  if (!rows)
    throw new ApiFailure(
      'invalid_input',
      `The cursor ${JSON.stringify(cursor)} is not a row of run ${JSON.stringify(run_id)}; pass the rows_next_cursor or next_cursor a page gave, or none to start at the first row.`,
    );
  return { items: rows.map(rowView), next_cursor: nextCursor(rows, limit, (r) => r.id) };
}

/** A page of a run's timeline; its cursor is a timeline position (a whole number) a page gave. */
function eventsPage(db: Db, run_id: string, limit: number, cursor?: string) {
  if (cursor !== undefined && !/^[1-9][0-9]{0,14}$/.test(cursor)) {
    throw new ApiFailure(
      'invalid_input',
      `The cursor ${JSON.stringify(cursor)} is not a position in a run's timeline; pass the events_next_cursor or next_cursor a page gave, or none to start at the first event.`,
    );
  }
  const events = listRunEventsPage(db, { run_id, limit, after: cursor === undefined ? 0 : Number(cursor) });
  return { items: events.map(({ type, at, data }) => ({ type, at, data })), next_cursor: nextCursor(events, limit, (e) => String(e.seq)) };
}

const by = personBy;

/** What the kernel's handlers are handed by electron/app.ts. */
export interface KernelApiPorts {
  dataDir: string;
  db: Db;
  kernel: Kernel;
  clock: Clock;
  /** Whether Stop all is engaged (governance; false without it). */
  stopAll(): boolean;
  /** What each run waits on: its orchestration holds (governance; empty without it). */
  waitingOn(): Map<string, WaitingOn[]>;
}

export function kernelHandlers(nexus: KernelApiPorts): Pick<Handlers, KernelMethods> {
  const { kernel, db } = nexus;
  const isActive = (name: string) => getAgent(db, name)?.status === 'active';
  return {
    status: () => ({
      version: NEXUS_VERSION,
      data_dir: nexus.dataDir,
      pending: kernel.pendingCount(),
      runs_in_flight: countRunsInFlight(db),
      stop_all: nexus.stopAll(),
      trusted_agents: kernel.trustedAgents(),
      ...(nexus.clock.offsetMs !== undefined ? { clock_offset_ms: nexus.clock.offsetMs } : {}),
    }),

    agentsList: () => listAgentProfiles(kernel).map(agentView),
    agentsGet: ({ name }) => agentView(getAgentProfile(kernel, name)),
    agentsSave: (input) => saveAgentProfile(kernel, input),
    // A removed agent's name starts fresh: it may be created again, and is not there to replace. The check and
    // the save run in one synchronous step, so no other call can create or remove the name in between.
    agentsCreate: (input) => {
      if (isActive(input.name))
        throw new ApiFailure(
          'conflict',
          `An agent named ${input.name} already exists: nothing was changed. Replace it (agentsReplace), or choose another name.`,
        );
      const { agent, warnings } = saveAgentProfile(kernel, input);
      return { agent, warnings };
    },
    agentsReplace: (input) => {
      if (!isActive(input.name)) throw new ApiFailure('not_found', `No agent named ${input.name}: nothing was saved. Create it (agentsCreate) instead.`);
      const { agent, warnings } = saveAgentProfile(kernel, input);
      return { agent, warnings };
    },
    agentsRemove: ({ name }) => removeAgent(kernel, name),

    runsList: ({ limit, cursor }) => {
      const runs = listRunsPage(db, { limit, cursor });
      if (!runs)
        throw new ApiFailure(
          'invalid_input',
          `The cursor ${JSON.stringify(cursor)} is not a run's id; list again without a cursor, or pass the id of the last run of a page.`,
        );
      const waiting = nexus.waitingOn();
      // Parked rows are counted per listed run (rows_parked_by_run), never across the whole store.
      return runs.map((r) => withWaiting(runSummary(r, countParkedOfRun(db, r.id)), waiting));
    },
    runsShow: ({ id, rows_limit = RUN_DETAIL_PAGE, events_limit = RUN_DETAIL_PAGE }) => {
      const run = kernel.getRun(id);
      if (!run) throw new ApiFailure('not_found', `No run ${JSON.stringify(id)}.`);
      const rows = rowsPage(db, id, rows_limit);
      const events = eventsPage(db, id, events_limit);
      const detail: z.infer<typeof RunDetail> = {
        ...withWaiting(runSummary(run, countParkedOfRun(db, id)), nexus.waitingOn()),
        rules: run.rules,
        workspace: run.workspace,
        rows: rows.items,
        rows_next_cursor: rows.next_cursor,
        events: events.items,
        events_next_cursor: events.next_cursor,
      };
      const messages = allMessages(db, id).map((m) => ({
        id: m.id,
        turn: m.turn,
        round: m.round,
        kind: m.kind,
        compacted: m.compacted,
        at: m.created_at,
        ...m.message,
      }));
      return { ...detail, messages };
    },
    runsRows: ({ run_id, cursor, limit = RUN_DETAIL_PAGE }) => {
      if (!kernel.getRun(run_id)) throw new ApiFailure('not_found', `No run ${JSON.stringify(run_id)}.`);
      return rowsPage(db, run_id, limit, cursor);
    },
    runsEvents: ({ run_id, cursor, limit = RUN_DETAIL_PAGE }) => {
      if (!kernel.getRun(run_id)) throw new ApiFailure('not_found', `No run ${JSON.stringify(run_id)}.`);
      return eventsPage(db, run_id, limit, cursor);
    },
    // The rules passed the schema (shared/api/approval.ts); the kernel checks them again at creation, so an
    // in-process caller that skips dispatch is refused with the same words.
    runsCreate: ({ mode, rules, workspace }, ctx) => {
      if (workspace !== undefined && !isAbsolute(workspace)) throw WORKSPACE_NOT_ABSOLUTE();
      return runSummary(kernel.createRun({ agent: null, mode, rules: rules ?? [], workspace, created_by: by(ctx) }), 0);
    },
    runsAppend: ({ run_id, tool, input }) => rowView(kernel.submitRow(run_id, { tool, input, origin: 'author' })),
    runsStop: ({ id }) => runSummary(kernel.stopRun(id, { reason: 'stopped by a person' })),

    rowsWait: async ({ id, timeout_ms }) => {
      // Wall-clock timeout (a door's wait), not the kernel clock; the waiter is removed when it fires.
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), timeout_ms);
      try {
        return rowView(await kernel.waitRow(id, { signal: stop.signal }));
      } finally {
        clearTimeout(timer);
      }
    },

    inboxList: ({ limit, cursor, ...filter }) => {
      const f = filterOf(filter);
      // A call without page or filter reads every pending card (a caller that pages passes limit).
      if (limit === undefined && cursor === undefined && !Object.keys(f).length) return kernel.inbox.pending().map(inboxView);
      const page = listPendingInboxPage(db, { limit: limit ?? 10_000, cursor, filter: f });
      if (!page)
        throw new ApiFailure(
          'invalid_input',
          `The cursor ${JSON.stringify(cursor)} is not a card's id; list again without a cursor, or pass the id of the last card of a page.`,
        );
      return page.map(inboxView);
    },
    inboxSummary: (filter) => summarizePendingInbox(db, filterOf(filter)),
    inboxIds: (filter) => pendingInboxIds(db, filterOf(filter)),
    inboxBulk: async ({ ids, action, reason }, ctx) => {
      const done: string[] = [];
      const failed: { id: string; message: string }[] = [];
      for (const id of new Set(ids)) {
        try {
          await kernel.inbox.act(id, action, { by: by(ctx), ...(action === 'deny' && reason?.trim() ? { reason: reason.trim() } : {}) });
          done.push(id);
        } catch (e) {
          failed.push({ id, message: e instanceof Error ? e.message : String(e) });
        }
      }
      return { done, failed };
    },
    inboxContext: ({ id }) => {
      const item = kernel.inbox.get(id);
      if (!item) throw new ApiFailure('not_found', `No inbox card ${JSON.stringify(id)}.`);
      const run = kernel.getRun(item.run_id);
      const row = item.row_id ? kernel.getRow(item.row_id) : null;
      const round = row?.round ?? null;
      const said = run?.agent ? assistantTextOfRound(db, item.run_id, round, Date.parse(row?.created_at ?? item.created_at)) : null;
      return { said, round, run: run ? { id: run.id, agent: run.agent, created_at: run.created_at, status: run.status } : null };
    },
    inboxApprove: ({ id, trust_session }, ctx) => kernel.inbox.act(id, 'approve', { by: by(ctx), trust_session }),
    inboxDeny: ({ id, reason }, ctx) => kernel.inbox.act(id, 'deny', { by: by(ctx), reason }),
    inboxRetry: ({ id }, ctx) => kernel.inbox.act(id, 'retry', { by: by(ctx) }),
    inboxAbandon: ({ id }, ctx) => kernel.inbox.act(id, 'abandon', { by: by(ctx) }),
    inboxAnswer: ({ id, text }, ctx) => kernel.inbox.act(id, 'answer', { by: by(ctx), text }),
    executorsRevoke: ({ agent }) => ({ readdressed: revokeExecutor(kernel, agent) }),
    trustRevoke: ({ agent }) => {
      const revoked = kernel.revokeTrust(agent);
      if (revoked) kernel.emit({ type: 'agents_changed' }); // windows showing trust refresh
      return { agent, revoked };
    },
  };
}
