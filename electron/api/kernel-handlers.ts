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
import { RUN_DETAIL_PAGE, type RunDetail } from '../../shared/api/runs.js';
import type { AgentProfileInput } from '../../shared/api/agents.js';
import { countRunsInFlight, listRunsPage } from '../store/queries/runs.js';
import { countParkedOfRun } from '../store/queries/rows.js';
import { lastCallOfRun } from '../store/queries/client-runs.js';
import { listPendingInboxPage, pendingInboxIds, summarizePendingInbox } from '../store/queries/inbox-pages.js';
import { allMessages, assistantTextOfRound } from '../store/queries/conversation.js';
import { getAgent } from '../store/queries/agents.js';
import { budgetOf } from '../agents/budget.js';
import { getAgentProfile, listAgentProfiles, removeAgent, revokeExecutor, saveAgent } from '../agents/profiles.js';

import { NEXUS_VERSION } from '../../shared/version.js';
import { agentView, filterOf, inboxView, rowView, runSummary, trustGrantView, withWaiting } from './kernel-views.js';
import { eventsPage, rowsPage } from './run-pages.js';
import { errorMessage } from '../../shared/errors.js';

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
  | 'trustList'
  | 'trustRevoke';

const WORKSPACE_NOT_ABSOLUTE = () =>
  new ApiFailure('invalid_input', 'workspace must be an absolute path', [{ path: 'workspace', message: 'must be an absolute path' }]);

/** Save a profile the way agentsSave, agentsCreate and agentsReplace all do (the kernel checks rules, hooks
 *  and secrets); `replaced`: an active profile of that name was overwritten. */
function saveAgentProfile(kernel: Kernel, input: z.output<typeof AgentProfileInput>) {
  if (input.workspace !== undefined && !isAbsolute(input.workspace)) throw WORKSPACE_NOT_ABSOLUTE();
  const { agent, warnings, replaced } = saveAgent(kernel, input);
  return { agent: agentView(agent), warnings, replaced };
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
  const lastCall = (run_id: string) => lastCallOfRun(db, run_id);
  const isActive = (name: string) => getAgent(db, name)?.status === 'active';
  return {
    status: () => ({
      version: NEXUS_VERSION,
      data_dir: nexus.dataDir,
      pending: kernel.pendingCount(),
      runs_in_flight: countRunsInFlight(db),
      stop_all: nexus.stopAll(),
      trusted_agents: kernel.trust.agents(),
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
          `An agent named ${input.name} already exists: nothing was changed. Replace it (nexus agents replace FILE, or open it in Agents), or choose another name.`,
        );
      const { agent, warnings } = saveAgentProfile(kernel, input);
      return { agent, warnings };
    },
    agentsReplace: (input) => {
      if (!isActive(input.name))
        throw new ApiFailure(
          'not_found',
          `No agent named ${input.name}: nothing was saved. Create it instead (nexus agents create FILE, or New agent in Agents).`,
        );
      const { agent, warnings } = saveAgentProfile(kernel, input);
      return { agent, warnings };
    },
    agentsRemove: ({ name }) => removeAgent(kernel, name),

    runsList: ({ limit, cursor, agent, status, client }) => {
      const runs = listRunsPage(db, { limit, cursor, agent, status, client });
      if (!runs)
        throw new ApiFailure(
          'invalid_input',
          `The cursor ${JSON.stringify(cursor)} is not a run's id; list again without a cursor, or pass the id of the last run of a page.`,
        );
      const waiting = nexus.waitingOn();
      // Parked rows are counted per listed run (rows_parked_by_run), never across the whole store.
      return runs.map((r) => withWaiting(runSummary(r, countParkedOfRun(db, r.id), lastCall), waiting));
    },
    runsShow: ({ id, rows_limit = RUN_DETAIL_PAGE, events_limit = RUN_DETAIL_PAGE }) => {
      const run = kernel.getRun(id);
      if (!run) throw new ApiFailure('not_found', `No run ${JSON.stringify(id)}.`);
      const rows = rowsPage(db, id, rows_limit);
      const events = eventsPage(db, id, events_limit);
      const detail: z.infer<typeof RunDetail> = {
        ...withWaiting(runSummary(run, countParkedOfRun(db, id), lastCall), nexus.waitingOn()),
        rules: run.rules,
        budget: budgetOf(db, run),
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
          failed.push({ id, message: errorMessage(e) });
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
    inboxApprove: ({ id, trust_session, trust_scope }, ctx) => kernel.inbox.act(id, 'approve', { by: by(ctx), trust_session, trust_scope }),
    inboxDeny: ({ id, reason }, ctx) => kernel.inbox.act(id, 'deny', { by: by(ctx), reason }),
    inboxRetry: ({ id }, ctx) => kernel.inbox.act(id, 'retry', { by: by(ctx) }),
    inboxAbandon: ({ id }, ctx) => kernel.inbox.act(id, 'abandon', { by: by(ctx) }),
    inboxAnswer: ({ id, text }, ctx) => kernel.inbox.act(id, 'answer', { by: by(ctx), text }),
    executorsRevoke: ({ agent }) => ({ readdressed: revokeExecutor(kernel, agent) }),
    trustList: ({ agent }) => ({ grants: kernel.trust.grants(agent).map(trustGrantView) }),
    trustRevoke: ({ agent, id }) => {
      const named = id === undefined ? agent : kernel.trust.grants().find((g) => g.id === id)?.agent;
      const before = kernel.trust.grants().length;
      const revoked = kernel.trust.revoke(id === undefined ? { agent } : { id });
      if (revoked) kernel.emit({ type: 'agents_changed' }); // windows showing trust refresh
      return { agent: named ?? '', revoked, count: before - kernel.trust.grants().length };
    },
  };
}
