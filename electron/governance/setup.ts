// createGovernance(ports): constructed once by electron/app.ts. Installs the orchestration gate, the
// orchestration inbox kind, delegate_task and message_agent, and the delegation finalizer on the turns it is
// handed; returns the service (Stop all, settings, holds, Recent chains) and delegation, which app.ts hands to
// the API's handlers (electron/api/orchestration-handlers.ts), to connected clients and to `status`.
import { Governance } from './service.js';
import { Delegation } from './delegation.js';
import { MessageAgent } from './message-agent.js';
import type { GovernancePorts } from './ports.js';
import { ApiFailure } from '../../shared/errors.js';

export interface GovernanceModule {
  governance: Governance;
  delegation: Delegation;
}

export async function createGovernance(ports: GovernancePorts): Promise<GovernanceModule> {
  const { kernel } = ports;
  const gov = new Governance(ports);
  const delegation = new Delegation(gov);

  kernel.setHopGate((call) => gov.gate(call));
  kernel.inbox.register('orchestration', {
    // Trust for the session never covers a hold: asked for, the approval is refused (nothing is approved), so
    // nobody believes they granted trust that does not exist.
    approve: (item, o) => {
      if (o.trust_session) {
        throw new ApiFailure(
          'not_supported',
          'Trust for this session never covers an orchestration hold: nothing was approved. Approve the hold on its own (without trust for the session).',
        );
      }
      return gov.holds.answer(item.id, true, o.by);
    },
    deny: (item, o) => gov.holds.answer(item.id, false, o.by, o.reason),
    closedBecause: (item) => gov.holds.closedBecause(item.id),
  });
  kernel.registerTool(delegation.delegateTool);
  kernel.registerTool(new MessageAgent(gov, delegation).tool);
  gov.holds.onExpired = (h) => delegation.holdExpired(h);

  // A task's run that ends without its task closing (stopped, failed) answers its delegator.
  // A force-stopped run's pending holds are canceled (its cards close; nothing asks about a stopped run).
  const off = kernel.on((e) => {
    if (e.type !== 'run_event' || !['run_ended', 'run_stopped', 'run_failed'].includes(e.event)) return;
    const run = kernel.getRun(e.run_id);
    if (!run) return;
    if (run.status === 'canceled') gov.holds.cancelOfRun(run.id);
    delegation.onRunEnded(run);
  });
  ports.onClose(off);
  // After crash recovery (app.ts starts the kernel after constructing the modules): tasks whose delegating call
  // was interrupted. Holds first: one that expired while NEXUS was closed fails its task with the expiry
  // sentence (not as "interrupted"); the others get their 24 h timer back.
  setImmediate(() => {
    if (!kernel.isOpen) return;
    gov.holds.sweep();
    delegation.recoverTasks();
  });

  // Without turns (a NEXUS built without them) delegation answers "not available" (Governance.turns()).
  if (ports.turns) {
    // An answer in words is acting too: Recent chains lists the agent even when it called no tool (seed 003).
    ports.turns.addFinalizer((run) => {
      if (run.chain_id && run.agent) gov.recent.noteActed(run.chain_id, run.agent);
      return Promise.resolve(undefined);
    });
    ports.turns.addFinalizer(delegation.finalizer);
    // A failed delegated task's attention card: Abandon dismisses it. It takes no Retry (shared/inbox/answers.ts:
    // the delegator already has the failure; delegating again is the agent's move), so none is handled here.
    ports.turns.hooks.registerAttentionSource('delegation', {
      abandon: (item, o) => ({ state: kernel.inbox.resolve(item.id, 'abandoned', o.by) ? 'abandoned' : item.status }),
    });
  }

  await gov.start();
  return { governance: gov, delegation };
}
