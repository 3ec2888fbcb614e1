// Runs whose calls a client executes (Claude Code, Codex connected through their tool hooks): every row crosses
// the same stage and is recorded the same way, but once granted the CLIENT runs it, not NEXUS. The mark is
// durable (the run's created_by starts with `client:`), so after a restart a granted row of such a run can
// never fall through to a kernel tool that would run it a second time, on this machine, by NEXUS.
import * as results from './results.js';
import type { KernelState } from './kernel-state.js';
import type { ExecutorTool, Row, Run } from './types.js';

export const CLIENT_RUN_PREFIX = 'client:';

export const isClientRun = (run: Pick<Run, 'created_by'>): boolean => typeof run.created_by === 'string' && run.created_by.startsWith(CLIENT_RUN_PREFIX);

/** What stands in for a client's tool when nothing installed a client executor: it refuses, it never runs. */
const NO_CLIENT_EXECUTOR: ExecutorTool = {
  name: 'client',
  description: 'A call a connected client executes itself.',
  inputSchema: { type: 'object' },
  run: async () =>
    results.toolError('This call belongs to a connected client, and no client executor is installed; NEXUS did not run it.', 'no_client_executor'),
};

/** The tool a row of this run executes (and describes itself on a card): the client's stand-in, or the registry's. */
export function toolFor(k: KernelState, run: Run, row: Row): ExecutorTool | undefined {
  if (isClientRun(run)) return k.clientExecutor?.(run, row) ?? NO_CLIENT_EXECUTOR;
  return k.tools.find(run.id, row);
}
