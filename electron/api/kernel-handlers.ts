// The kernel's methods of the API (shared/api/kernel.ts), except runsStart (turns provide it).
import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import type { Handlers, CallContext } from './dispatch.js';
import { ApiFailure } from './dispatch.js';
import type { Nexus } from '../app.js';
import type { AgentView, InboxItem, RowView, RunDetail, RunSummary } from '../../shared/api/kernel.js';
import { validateRules } from '../../shared/rules/index.js';
import { countRunsInFlight, listRuns } from '../store/queries/runs.js';
import { countParkedByRun } from '../store/queries/rows.js';
import { listRunEvents } from '../store/queries/events.js';
import type { InboxEntry } from '../store/queries/inbox.js';
import type { AgentRow } from '../store/queries/agents.js';
import { getAgentProfile, listAgentProfiles, removeAgent, revokeExecutor, saveAgent } from '../kernel/agents.js';
import type { Row, Run } from '../kernel/types.js';
import type { AgentProfile } from '../../shared/types.js';

export const NEXUS_VERSION = '0.1.0';

type KernelMethods =
  | 'status'
  | 'agentsList'
  | 'agentsGet'
  | 'agentsSave'
  | 'agentsRemove'
  | 'runsList'
  | 'runsShow'
  | 'runsCreate'
  | 'runsAppend'
  | 'runsStop'
  | 'rowsWait'
  | 'inboxList'
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
});

/** A run waiting on an orchestration hold says which (request id, hop): it does not read as done. */
const withWaiting = (s: z.infer<typeof RunSummary>, waiting: Map<string, z.infer<typeof RunSummary>['waiting_on'] & object> | undefined) => {
  const w = waiting?.get(s.id);
  return w?.length ? { ...s, waiting_on: w } : s;
};

export const inboxView = (i: InboxEntry): z.infer<typeof InboxItem> => {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { status, addressee, data, ...item } = i;
  return { ...item, ...(addressee !== undefined ? { addressee } : {}) } as z.infer<typeof InboxItem>;
};

const agentView = (a: AgentRow): z.infer<typeof AgentView> => a as unknown as z.infer<typeof AgentView>;
const by = (ctx: CallContext) => `person:${ctx.door}`;

export function kernelHandlers(nexus: Nexus): Pick<Handlers, KernelMethods> {
  const { kernel, db } = nexus;
  return {
    status: () => ({
      version: NEXUS_VERSION,
      data_dir: nexus.dataDir,
      pending: kernel.pendingCount(),
      runs_in_flight: countRunsInFlight(db),
      stop_all: nexus.probes.stopAll(),
      trusted_agents: kernel.trustedAgents(),
      ...(nexus.clock.offsetMs !== undefined ? { clock_offset_ms: nexus.clock.offsetMs } : {}),
    }),

    agentsList: () => listAgentProfiles(kernel).map(agentView),
    agentsGet: ({ name }) => agentView(getAgentProfile(kernel, name)),
    agentsSave: (input) => {
      if (input.workspace !== undefined && !isAbsolute(input.workspace)) throw new ApiFailure('invalid_input', 'workspace must be an absolute path');
      const { agent, warnings, replaced } = saveAgent(kernel, input as AgentProfile);
      return { agent: agentView(agent), warnings, replaced };
    },
    agentsRemove: ({ name }) => removeAgent(kernel, name),

    runsList: ({ limit }) => {
      const parked = countParkedByRun(db);
      const waiting = nexus.probes.waitingOn?.();
      return listRuns(db, { limit }).map((r) => withWaiting(runSummary(r, parked.get(r.id) ?? 0), waiting));
    },
    runsShow: ({ id }) => {
      const run = kernel.getRun(id);
      if (!run) throw new ApiFailure('not_found', `No run ${JSON.stringify(id)}.`);
      const rows = kernel.listRows(id);
      const detail: z.infer<typeof RunDetail> = {
        ...withWaiting(runSummary(run, rows.filter((r) => r.state === 'needs_approval').length), nexus.probes.waitingOn?.()),
        rules: run.rules,
        workspace: run.workspace,
        rows: rows.map(rowView),
        events: listRunEvents(db, id),
      };
      return detail;
    },
    runsCreate: ({ mode, rules, workspace }, ctx) => {
      const v = validateRules(rules ?? []);
      if (!v.ok) throw new ApiFailure('invalid_rules', `The approval rules are invalid: ${v.errors.map((e) => e.message).join('; ')}`, v.errors);
      if (workspace !== undefined && !isAbsolute(workspace)) throw new ApiFailure('invalid_input', 'workspace must be an absolute path');
      return runSummary(kernel.createRun({ agent: null, mode, rules: v.rules, workspace, created_by: by(ctx) }), 0);
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

    inboxList: () => kernel.inbox.pending().map(inboxView),
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
