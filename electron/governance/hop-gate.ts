// The orchestration gate as the kernel calls it (kernel.setHopGate), inside the kernel's transaction:
//   1. decide (gate.ts): hop number taken; hold, approval used, recipient touched written; nothing shown;
//   2. write what must be durable with that decision: a new hold's card, a canceled hold's card closed;
//   3. hand back everything anyone can see — the card announced, its 24 h clock, the hop in Recent chains, a
//      closed card's removal — as the decision's `after`, which the kernel runs once the transaction has
//      committed (and never if it rolled back). No event, window or other connection learns of a decision
//      before it is durable.
import type { Kernel } from '../kernel/kernel.js';
import type { HopGateCall, HopGateDecision } from '../kernel/types.js';
import { targetOf } from '../kernel/effect.js';
import { insertInboxItem, resolveInboxItem, type InboxEntry } from '../store/queries/inbox.js';
import { evaluateHop, type GateDeps, type GateOutcome } from './gate.js';
import { holdCard } from './hold-card.js';
import { openTaskOfRun } from '../store/queries/tasks.js';
import type { HoldTimers } from './hold-clock.js';
import type { RecentChains } from './recent-chains.js';
import { log } from '../log.js';

export interface HopGateDeps extends Omit<GateDeps, 'targetOf'> {
  kernel: Pick<Kernel, 'tools' | 'sandboxPolicy' | 'inbox' | 'emitInbox'>;
  recent: Pick<RecentChains, 'recordHop'>;
  holdTimers: Pick<HoldTimers, 'arm' | 'disarm'>;
}

/** The gate's dependencies as the kernel's tools answer them: built once, not per hop. */
export function gateDeps(d: HopGateDeps): HopGateDeps & GateDeps {
  const tools = d.kernel.tools;
  return { ...d, targetOf: (call) => targetOf(tools.find(call.run.id, { wire_tool: call.wire_tool, tool: call.tool }), call.input, call.run.workspace) };
}

export function gateHop(d: HopGateDeps & GateDeps, call: HopGateCall): HopGateDecision {
  const outcome = evaluateHop(d, call);
  // Not a governed hop: nothing was recorded, nothing follows.
  if (!outcome.hop && !outcome.opened && !outcome.canceled) return outcome.decision;
  const now = d.now();
  // The card is written with its hold, so a crash never leaves a hold nobody can answer.
  const card = outcome.opened ? holdCard(d.kernel, outcome.opened, call, openTaskOfRun(d.db, outcome.opened.run_id)) : null;
  const written = card ? { card: insertInboxItem(d.db, { ...card.item, now }), title: card.title } : null;
  const closed = outcome.canceled !== null && resolveInboxItem(d.db, { id: outcome.canceled.request_id, status: 'canceled', now });
  return { ...outcome.decision, after: () => afterCommit(d, outcome, written, closed) };
}

/** The decision is durable: now the windows, the hold clock and Recent chains may learn of it. */
function afterCommit(d: HopGateDeps, o: GateOutcome, written: { card: InboxEntry; title: string } | null, closed: boolean): void {
  if (o.canceled) {
    const { request_id } = o.canceled;
    d.holdTimers.disarm(request_id);
    if (closed) safely(() => d.kernel.emitInbox({ removed: [{ id: request_id, status: 'canceled' }] }));
  }
  const hop = o.hop;
  if (hop) safely(() => d.recent.recordHop(hop.chain_id, hop)); // the listed hop takes its own fields only
  if (o.opened && written) {
    d.holdTimers.arm(o.opened);
    safely(() => d.kernel.inbox.announce(written.card, written.title));
  }
}

/** One effect failing (a listener throwing) must not keep the others from happening. */
function safely(effect: () => void): void {
  try {
    effect();
  } catch (e) {
    log.error('announcing an orchestration decision failed', e);
  }
}
