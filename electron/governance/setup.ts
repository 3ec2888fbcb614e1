// setupGovernance(nexus): called once from electron/app.ts (SETUPS). Installs the orchestration gate, the
// orchestration inbox kind, delegate_task and message_agent, the delegation finalizer, Stop all's probe and
// the services the governance handlers (electron/api/orchestration-handlers.ts) read.
import type { Nexus } from '../app.js';
import { Governance } from './service.js';
import { Delegation } from './delegation.js';
import { MessageAgent } from './message-agent.js';
import type { TurnsPort } from './turns-port.js';
import { ApiFailure } from '../../shared/errors.js';

declare module '../app.js' {
  interface NexusServices {
    governance?: Governance;
    delegation?: Delegation;
  }
}

export async function setupGovernance(nexus: Nexus): Promise<void> {
  const gov = new Governance(nexus);
  const delegation = new Delegation(gov);
  nexus.services.governance = gov;
  nexus.services.delegation = delegation;

  nexus.kernel.setHopGate((call) => gov.gate(call));
  nexus.kernel.inbox.register('orchestration', {
    // Trust for the session never covers a hold: asked for, the approval is refused (nothing is approved), so
    // nobody believes they granted trust that does not exist.
    approve: (item, o) => {
      if (o.trust_session) {
        throw new ApiFailure('not_supported', 'Trust for this session never covers an orchestration hold: nothing was approved. Approve the hold on its own (without trust for the session).');
      }
      return gov.answer(item.id, true, o.by);
    },
    deny: (item, o) => gov.answer(item.id, false, o.by, o.reason),
  });
  nexus.kernel.registerTool(delegation.delegateTool);
  nexus.kernel.registerTool(new MessageAgent(gov, delegation).tool);
  nexus.probes.stopAll = () => gov.stopAllInEffect();
  nexus.probes.waitingOn = () => gov.waitingOn();
  gov.onHoldExpired = (h) => delegation.holdExpired(h);

  // A task's run that ends without its task closing (stopped, failed) answers its delegator.
  // A force-stopped run's pending holds are canceled (its cards close; nothing asks about a stopped run).
  const off = nexus.kernel.on((e) => {
    if (e.type !== 'run_event' || !['run_ended', 'run_stopped', 'run_failed'].includes(e.event)) return;
    const run = nexus.kernel.getRun(e.run_id);
    if (!run) return;
    if (run.status === 'canceled') gov.cancelHoldsOfRun(run.id);
    delegation.onRunEnded(run);
  });
  nexus.onClose(off);
  // After crash recovery (kernel.start runs after the setups): tasks whose delegating call was interrupted.
  // Holds first: one that expired while NEXUS was closed fails its task with the expiry sentence (not as
  // "interrupted"); the others get their 24 h timer back.
  setImmediate(() => {
    if (!nexus.kernel.isOpen) return;
    gov.sweepHolds();
    delegation.recoverTasks();
  });

  // Turns are set up before governance (SETUPS order); without them delegation answers "not available".
  const turns = nexus.services.turns as TurnsPort | undefined;
  turns?.addFinalizer(delegation.finalizer);
  // A failed delegated task's attention card: Abandon dismisses it; Retry is not offered (the delegator
  // already has the failure; delegating again is the agent's move).
  turns?.hooks?.registerAttentionSource?.('delegation', {
    abandon: (item, o) => ({ state: nexus.kernel.inbox.resolve(item.id, 'abandoned', o.by) ? 'abandoned' : item.status }),
    retry: () => {
      throw new ApiFailure('not_supported', 'A failed delegated task cannot be retried from its card; the delegating agent can delegate it again.');
    },
  });

  await gov.start();
}
