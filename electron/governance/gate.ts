// The orchestration gate's store-reading half (DESIGN §3). For every model row the kernel asks, before the
// approval stage: is this a governed hop, and may it proceed? Settings and the entitlement are read as the
// store holds them at this moment (watched reads: never a remembered answer to a store that changed). Then
// per-hop approval: a hop that passed is held, not performed, until a person answers; its identical retry finds
// the answer.
// Synchronous (better-sqlite3) so the kernel can call it inline, inside its transaction: every write here (hold,
// approval used, recipient touched) commits or rolls back with the row's decision, and so does the hop number it
// takes (hop-numbers.ts; the kernel keeps it on the row). It returns what it decided and does nothing anyone can
// see: no card, no event, no Recent chains entry, no timer. Those are the caller's, once the decision is durable
// (hop-gate.ts). Any error it throws refuses the call.
import type { Db } from '../store/db.js';
import type { HopGateCall, HopGateDecision } from '../kernel/types.js';
import type { ChainHopView, HopCode } from '../../shared/types.js';
import { decideHop, denialResult, type Denial } from '../../shared/orchestration/gate.js';
import { handoffRecipient, hopFacts } from '../../shared/orchestration/chain.js';
import { heldResult, refusedResult } from '../../shared/orchestration/holds.js';
import { readSettings } from '../store/queries/settings.js';
import { gateEntitlement } from './entitlements.js';
import { touch } from '../store/queries/chains.js';
import { chainHasLiveHolds, countHopForDesk, gatePlace } from '../store/queries/hops.js';
import { deskJoined } from '../store/queries/desk-outbox.js';
import type { HopNumbers } from './hop-numbers.js';
import { getAgent } from '../store/queries/agents.js';
import { cancelHold, consumeHold, expiredUnanswered, fingerprint, insertHold, liveHold, newRequestId, type Hold } from '../store/queries/holds.js';

export interface GateDeps {
  db: Db;
  now(): number;
  keyFingerprint: string;
  /** The chains' hop numbers (one count per app: the gate's writes and their rollbacks keep it exact). */
  hops: HopNumbers;
  /** What the hop acts on, as the approver reads it (the kernel tool's own target when it has one). */
  targetOf(call: HopGateCall): string;
  /** Stop all engaged from outside this store (a team desk: pressed elsewhere, or the desk gone silent). */
  stopAll?: () => boolean;
}

/** One hop as Recent chains lists it (the time is stamped when it is listed). */
export type HopRecord = Omit<ChainHopView, 'at'> & { chain_id: string; code?: HopCode };

/** What the gate decided about one call: a plain value, nothing done yet that anyone can see. */
export interface GateOutcome {
  /** The kernel's answer: proceed (maybe with the approver), or the result the model reads instead. */
  decision: HopGateDecision;
  /** The hop to list in Recent chains (its verdict, denial code, request id); null when nothing is listed. */
  hop: HopRecord | null;
  /** A hold this decision opened (recorded): its card and its 24 h clock are to follow. */
  opened: Hold | null;
  /** A pending hold this decision canceled (per-hop approval switched off meanwhile): its card is to close. */
  canceled: Hold | null;
}

const PROCEED: HopGateDecision = Object.freeze({ proceed: true }) as HopGateDecision;
/** An ungoverned call: nothing recorded, nothing to show. */
const UNGOVERNED: GateOutcome = Object.freeze({ decision: PROCEED, hop: null, opened: null, canceled: null });

export function evaluateHop(d: GateDeps, call: HopGateCall): GateOutcome {
  const run = call.run;
  // Only runs a chain started are governed: a lone agent, a person's run, and the starter's own calls are not.
  const place = gatePlace(d.db, run);
  if (!place) {
    // A run claiming a chain whose position is unknown must not run ungoverned: fail closed.
    if (run.chain_id) throw new Error(`run ${run.id} belongs to chain ${run.chain_id} but its position in the chain is not recorded`);
    return UNGOVERNED;
  }
  const now = d.now();
  const chain_id = place.chain_id;
  const agent = place.agent;
  const recipient = handoffRecipient(call.tool, call.input);
  const target = d.targetOf(call);
  // The identical retry of a held hop is that hop again, not a new one. Most chains hold nothing, which the
  // store answers from memory: then neither the fingerprint nor the hold's lookup is paid.
  const fp = chainHasLiveHolds(d.db, chain_id) ? fingerprint(chain_id, agent, call.tool, call.input) : null;
  const existing = fp === null ? null : liveHold(d.db, fp);
  const hop = existing?.hop ?? d.hops.next(d.db, chain_id);
  if (hop === null) throw new Error(`no chain ${chain_id}`);
  if (!existing && deskJoined(d.db)) countHopForDesk(d.db, { chain_id, hop, now });
  // The place is both the chain (its id, whom it touched) and the actor's position in it.
  const facts = hopFacts(place, hop, place, recipient);

  // Read fresh, at this moment.
  const stored = readSettings(d.db);
  const settings = d.stopAll?.() ? { ...stored, 'orchestration.stopAll': true } : stored;
  const entitlement = gateEntitlement(d.db, d.keyFingerprint, now);
  const decision = decideHop(settings, entitlement, facts);
  const where: Where = { hop, agent, action: call.tool, target, chain_id }; // what every result and record names
  if (!decision.allowed) {
    const result = denialResult(decision.denial satisfies Denial);
    return outcomeOf(where, { proceed: false, result }, { verdict: 'denied', code: decision.denial.code, request_id: existing?.request_id });
  }

  if (settings['orchestration.perHopApproval']) {
    if (existing?.status === 'pending') {
      // Still waiting: the same request id, no second card, nothing new to list.
      return outcomeOf(where, { proceed: false, result: heldResult({ ...where, request_id: existing.request_id }) }, null);
    }
    if (existing?.status === 'refused') return refusedOutcome(where, existing);
    if (existing?.status === 'approved') {
      if (!consumeHold(d.db, existing.request_id, now)) throw new Error('the approval could not be consumed');
      admit(d, chain_id, recipient, now);
      // The row says who let this hop through: the person who approved the hold, whatever the stage then says.
      const go = existing.answered_by ? { proceed: true as const, approved_by: existing.answered_by } : PROCEED;
      return outcomeOf(where, go, { verdict: 'approved', request_id: existing.request_id });
    }
    const hold: Hold = {
      request_id: newRequestId(),
      fingerprint: fp ?? fingerprint(chain_id, agent, call.tool, call.input),
      chain_id,
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
    const result = heldResult({ ...where, request_id: hold.request_id });
    return outcomeOf(where, { proceed: false, result }, { verdict: 'awaiting_approval', request_id: hold.request_id }, { opened: hold });
  }

  // Per-hop approval is off: the chain runs unattended (the other checks above still applied).
  const canceled = existing?.status === 'pending' && cancelHold(d.db, existing.request_id, now) ? existing : null;
  if (existing?.status === 'approved') consumeHold(d.db, existing.request_id, now);
  // A person's refusal of this exact hop stands even after the setting is switched off.
  if (existing?.status === 'refused') return refusedOutcome(where, existing);
  admit(d, chain_id, recipient, now);
  return outcomeOf(where, PROCEED, { verdict: 'allowed' }, { canceled });
}

/** The hop, agent, action, target and chain every result and record of one decision names. */
type Where = { hop: number; agent: string; action: string; target: string; chain_id: string };

// Module functions, not closures made per call: they run on every governed hop.
// The decision carries the hop's number: the kernel records it on the row (rows.hop), where a restart finds it.
function outcomeOf(where: Where, decision: HopGateDecision, record: Omit<HopRecord, keyof Where> | null, more: Partial<GateOutcome> = {}): GateOutcome {
  return { decision: { ...decision, hop: where.hop }, hop: record ? { ...where, ...record } : null, opened: null, canceled: null, ...more };
}

/** An expired hold stays refused (one of the five words) but says so: nobody refused it. */
function refusedOutcome(where: Where, h: Hold): GateOutcome {
  return outcomeOf(where, refusedResultOf(where, h), {
    verdict: 'refused',
    request_id: h.request_id,
    ...(expiredUnanswered(h) ? { code: 'approval_expired' as const } : {}),
  });
}

function refusedResultOf(where: Where, h: Hold): HopGateDecision {
  return { proceed: false, result: refusedResult({ ...where, request_id: h.request_id, reason: h.reason, expired: expiredUnanswered(h) }) };
}

/** A hand-off that proceeds touches its recipient now, so two hand-offs in one fan cannot both slip under the cap. */
function admit(d: GateDeps, chain_id: string, recipient: string | null, now: number): void {
  // A hand-off to an agent that does not exist fails in the tool; it touches nobody.
  if (recipient && getAgent(d.db, recipient)?.status === 'active') touch(d.db, chain_id, recipient, now);
}
