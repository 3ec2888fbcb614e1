// What the engine lets go of when the kernel says it is no longer needed: a removed agent's MCP servers, and an
// ended run's hook work, tools and resources.
import type { Kernel } from '../kernel/kernel.js';
import type { RunnerPool } from '../runners/pool.js';
import type { HookRunner } from './hooks.js';
import type { RunResources } from './run-resources.js';

const RUN_END_EVENTS = new Set(['run_stopped', 'run_ended', 'run_failed']);

/** Listens to the kernel's events until the returned function is called. */
export function releaseWhenDone(kernel: Kernel, runners: RunnerPool, hooks: HookRunner, resources: RunResources): () => void {
  return kernel.on((e) => {
    if (e.type === 'agents_changed') {
      // A removed agent's MCP servers (child processes included) are closed now, not at shutdown.
      for (const name of runners.agents()) {
        if (kernel.records.agent(name)?.status !== 'active') void runners.forget(name);
      }
    }
    if (e.type === 'run_event' && RUN_END_EVENTS.has(e.event)) {
      hooks.cancelRun(e.run_id);
      // Per-run state is rebuilt if the run re-opens for another turn.
      kernel.tools.forgetRun(e.run_id);
      resources.forget(e.run_id);
    }
  });
}
