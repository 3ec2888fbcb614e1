// The orchestration gate's store-reading half (DESIGN §3). For every model row the kernel asks, before the
// approval stage: is this a governed hop, and may it proceed? Settings and the entitlement are read FRESH
// from the store at this moment (never cached). Then per-hop approval: a hop that passed is held, not
// performed, until a person answers; its identical retry finds the answer.
// Synchronous (better-sqlite3) so the kernel can call it inline; any error it throws refuses the call.
import type { Db } from '../store/db.js';
import type { HopGateCall, HopGateDecision } from '../kernel/types.js';
import { decideHop, denialResult, type Denial } from '../../shared/orchestration/gate.js';
import { handoffRecipient, hopFacts } from '../../shared/orchestration/chain.js';
import { heldResult, refusedResult } from '../../shared/orchestration/holds.js';
import { readSettings } from './settings.js';
import { gateEntitlement } from './entitlements.js';
import { nextHop, placeOf, touch } from './chain-store.js';
import { getAgent } from '../store/queries/agents.js';
import { cancelHold, consumeHold, fingerprint, insertHold, liveHold, newRequestId, type Hold } from './hold-store.js';
import type { RecentChains } from './recent-chains.js';

export interface GateDeps {
  db: Db;
  now(): number;
  keyFingerprint: string;
  recent: RecentChains;
  /** What the hop acts on, as the approver reads it (the kernel tool's own target when it has one). */
  targetOf(tool: string, input: unknown, workspace: string): string;
  /** A new hold: put its card in the inbox (kind orchestration, id = request_id) and tell the windows. */
  onHeld(hold: Hold): void;
  /** A pending hold superseded (per-hop approval switched off meanwhile): take its card away. */
  onHoldCanceled(hold: Hold): void;
}

const PROCEED: HopGateDecision = Object.freeze({ proceed: true }) as HopGateDecision;

export function evaluateHop(d: GateDeps, call: HopGateCall): HopGateDecision {
  const run = call.run;
  // Only runs a chain started are governed: a lone agent, a person's run, and the starter's own calls are not.
  const place = placeOf(d.db, run);
  if (!place) {
    // A run claiming a chain whose position is unknown must not run ungoverned: fail closed.
    if (run.chain_id) throw new Error(`run ${run.id} belongs to chain ${run.chain_id} but its position in the chain is not recorded`);
    return PROCEED;
  }
  const now = d.now();
  const { member, chain } = place;
  const agent = member.agent;
  const recipient = handoffRecipient(call.tool, call.input);
  const target = d.targetOf(call.tool, call.input, run.workspace);
  const fp = fingerprint(chain.id, agent, call.tool, call.input);
  const existing = liveHold(d.db, fp);
  // The identical retry of a held hop is that hop again, not a new one.
  const hop = existing ? existing.hop : nextHop(d.db, chain.id, now);
  const facts = hopFacts({ chain_id: chain.id, touched: chain.touched }, hop, member, recipient);

  // Read fresh, at this moment.
  const settings = readSettings(d.db);
  const entitlement = gateEntitlement(d.db, d.keyFingerprint, now);
  const decision = decideHop(settings, entitlement, facts);
  const base = { hop, agent, action: call.tool, target };
  if (!decision.allowed) {
    record(d, chain.id, { ...base, verdict: 'denied', code: decision.denial.code, request_id: existing?.request_id });
    return { proceed: false, result: denialResult(decision.denial satisfies Denial) };
  }

  if (settings['orchestration.perHopApproval']) {
    if (existing?.status === 'pending') {
      // Still waiting: the same request id, no second card.
      return { proceed: false, result: heldResult({ ...base, chain_id: chain.id, request_id: existing.request_id }) };
    }
    if (existing?.status === 'refused') {
      record(d, chain.id, { ...base, verdict: 'refused', request_id: existing.request_id });
      return { proceed: false, result: refusedResult({ ...base, chain_id: chain.id, request_id: existing.request_id, reason: existing.reason }) };
    }
    if (existing?.status === 'approved') {
      if (!consumeHold(d.db, existing.request_id, now)) throw new Error('the approval could not be consumed');
      admit(d, chain.id, recipient, now);
      record(d, chain.id, { ...base, verdict: 'approved', request_id: existing.request_id });
      // The row says who let this hop through: the person who approved the hold, whatever the stage then says.
      return existing.answered_by ? { proceed: true, approved_by: existing.answered_by } : PROCEED;
    }
    const hold: Hold = {
      request_id: newRequestId(),
      fingerprint: fp,
      chain_id: chain.id,
      hop,
      agent,
      run_id: run.id,
      row_id: call.row_id,
      tool: call.tool,
      target,
      input: call.input,
      status: 'pending',
      reason: null,
      answered_by: null,
      created_at: now,
      answered_at: null,
    };
    insertHold(d.db, hold);
    record(d, chain.id, { ...base, verdict: 'awaiting_approval', request_id: hold.request_id });
    d.onHeld(hold);
    return { proceed: false, result: heldResult({ ...base, chain_id: chain.id, request_id: hold.request_id }) };
  }

  // Per-hop approval is off: the chain runs unattended (the other checks above still applied).
  if (existing?.status === 'pending' && cancelHold(d.db, existing.request_id, now)) d.onHoldCanceled(existing);
  if (existing?.status === 'approved') consumeHold(d.db, existing.request_id, now);
  if (existing?.status === 'refused') {
    // A person's refusal of this exact hop stands even after the setting is switched off.
    record(d, chain.id, { ...base, verdict: 'refused', request_id: existing.request_id });
    return { proceed: false, result: refusedResult({ ...base, chain_id: chain.id, request_id: existing.request_id, reason: existing.reason }) };
  }
  admit(d, chain.id, recipient, now);
  record(d, chain.id, { ...base, verdict: 'allowed' });
  return PROCEED;
}

/** A hand-off that proceeds touches its recipient now, so two hand-offs in one fan cannot both slip under the cap. */
function admit(d: GateDeps, chain_id: string, recipient: string | null, now: number): void {
  // A hand-off to an agent that does not exist fails in the tool; it touches nobody.
  if (recipient && getAgent(d.db, recipient)?.status === 'active') touch(d.db, chain_id, recipient, now);
}

function record(
  d: GateDeps,
  chain_id: string,
  h: { hop: number; agent: string; action: string; target: string; verdict: 'allowed' | 'awaiting_approval' | 'approved' | 'refused' | 'denied'; code?: Denial['code']; request_id?: string },
): void {
  d.recent.recordHop(chain_id, h);
}
