// The kernel's side of containment: where a run's workspace lives by default (OUTSIDE the data dir), the
// sandbox policy a run's processes get (from its agent's current profile), and the process records that
// let a restarted kernel kill what a crashed one left running.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { getAgent } from '../store/queries/agents.js';
import { deleteProcess, insertProcess } from '../store/queries/processes.js';
import { policyFor, type SandboxPolicy } from '../sandbox/policy.js';
import type { KernelState } from './kernel-state.js';
import type { ProcessTracker, Run } from './types.js';

/**
 * A run's default workspace: <workspacesDir>/<agent or run id>. An agent whose workspace was made under the
 * data dir by an older NEXUS (<dataDir>/workspaces/<agent>) keeps it; the sandbox still hides the rest of the
 * data dir from it.
 */
export function defaultWorkspace(k: KernelState, name: string, isAgent: boolean): string {
  const legacy = join(k.dataDir, 'workspaces', name);
  return isAgent && existsSync(legacy) ? legacy : join(k.workspacesDir, name);
}

/** The sandbox for a process of `run` (an MCP server passes its own network allow list). */
export function sandboxPolicy(k: KernelState, run: Run, o: { network?: string[] } = {}): SandboxPolicy {
  const agent = run.agent ? getAgent(k.db, run.agent) : null;
  return policyFor(agent, { workspace: run.workspace, dataDir: k.dataDir, ...(o.network ? { network: o.network } : {}) });
}

/** Is the sandbox off for this run's agent? (what the effect profile and the card say) */
export function unsandboxed(k: KernelState, run: Run): boolean {
  return run.agent ? getAgent(k.db, run.agent)?.sandbox === false : false;
}

export function processTracker(k: KernelState, row_id: string | null, what: string): ProcessTracker {
  return {
    started: (pgid, start_time) => insertProcess(k.db, { pgid, start_time, row_id, what, now: k.clock.now() }),
    ended: (pgid, start_time) => deleteProcess(k.db, pgid, start_time),
  };
}
