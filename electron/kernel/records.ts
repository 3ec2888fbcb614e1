// What the layers above the kernel read and record in the kernel's tables, as methods: the agents' profiles
// (the kernel reads them too: a run's sandbox, removal, executor revocation), runs, run events, and the
// ledger of the processes NEXUS started. Nothing above the kernel holds its database (the kernel is the one
// writer of its tables); they ask here. The agents' and governance's own tables are theirs, in their layers.
import type { Db } from '../store/db.js';
import type { AgentProfile, RunStatus } from '../../shared/types.js';
import { getAgent, listAgents, markAgentRemoved, setExecutorRevoked, upsertAgent, type AgentRow } from '../store/queries/agents.js';
import { listRuns, newestRunCreatedBy } from '../store/queries/runs.js';
import { insertRunEvent } from '../store/queries/events.js';
import { listRunningClientRuns, type RunningClientRun } from '../store/queries/client-runs.js';
import { deleteProcess, insertProcess } from '../store/queries/processes.js';
import type { Clock } from './clock.js';
import type { ProcessTracker, Run } from './types.js';

export class KernelRecords {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  agent(name: string): AgentRow | null {
    return getAgent(this.db, name);
  }
  agents(): AgentRow[] {
    return listAgents(this.db);
  }
  /** Insert or replace a profile (already validated, its secrets already split out). */
  saveAgent(profile: AgentProfile): void {
    upsertAgent(this.db, { profile, now: this.clock.now() });
  }
  /** Fence the agent (status removed, key reference cleared); false when it was removed already. */
  markAgentRemoved(name: string): boolean {
    return markAgentRemoved(this.db, { name, now: this.clock.now() });
  }
  revokeExecutor(name: string): boolean {
    return setExecutorRevoked(this.db, { name, revoked: true, now: this.clock.now() });
  }

  runs(filter: { limit: number; agent?: string; status?: RunStatus }): Run[] {
    return listRuns(this.db, filter);
  }
  /** The id of the newest run created by `created_by` (a client session's key), or null. */
  newestRunCreatedBy(created_by: string): string | null {
    return newestRunCreatedBy(this.db, created_by);
  }
  runningClientRuns(): RunningClientRun[] {
    return listRunningClientRuns(this.db);
  }
  /** A run event of the caller's own (stored in run_events; not announced: the caller emits what it shows). */
  recordRunEvent(run_id: string, type: string, data?: unknown, now: number = this.clock.now()): void {
    insertRunEvent(this.db, { run_id, type, data, now });
  }

  /** The ledger of a process NEXUS starts outside a row (an ACP agent): recorded while it lives, so that a
   *  restart after a crash kills what survived (recovery.ts). */
  processes(what: string): ProcessTracker {
    return {
      started: (pgid, start_time) => insertProcess(this.db, { pgid, start_time, row_id: null, what, now: this.clock.now() }),
      ended: (pgid, start_time) => deleteProcess(this.db, pgid, start_time),
    };
  }
}
