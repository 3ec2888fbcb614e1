// Per-hop approval holds in the store (migration 003). A hold is bound to its hop's fingerprint (chain, agent,
// resolved tool, canonical input): the identical retry finds it. Request ids are random 128 bits. Every writer
// calls wroteWatched: the gate remembers whether a chain holds a live hold (hops.ts chainHasLiveHolds).
import { hash, randomBytes } from 'node:crypto';
import { stmt, wroteWatched, type Db } from '../db.js';
import { hopFingerprintText } from '../../../shared/orchestration/canonical.js';
import { APPROVAL_EXPIRED_TEXT, PARK_DURATION_MS } from '../../../shared/types.js';

export type HoldStatus = 'pending' | 'approved' | 'refused' | 'consumed' | 'canceled';

export interface Hold {
  request_id: string;
  fingerprint: string;
  chain_id: string;
  hop: number;
  agent: string;
  run_id: string;
  row_id: string;
  tool: string;
  target: string;
  input: unknown;
  status: HoldStatus;
  reason: string | null;
  answered_by: string | null;
  created_at: number;
  answered_at: number | null;
}

interface HoldRecord extends Omit<Hold, 'input'> {
  input_json: string;
}
const toHold = (r: HoldRecord): Hold => {
  const { input_json, ...rest } = r;
  return { ...rest, input: JSON.parse(input_json) };
};

export const newRequestId = (): string => randomBytes(16).toString('hex');

export function fingerprint(chain_id: string, agent: string, tool: string, input: unknown): string {
  // The one-shot hash: the same digest as createHash().update().digest(), without the Hash object per hop.
  return hash('sha256', hopFingerprintText(chain_id, agent, tool, input), 'hex');
}

/** The live hold for a fingerprint: pending, approved (not yet used) or refused. */
export function liveHold(db: Db, fp: string): Hold | null {
  const r = stmt<HoldRecord>(
    db,
    "SELECT * FROM hop_holds WHERE fingerprint = ? AND status IN ('pending','approved','refused') ORDER BY created_at DESC, rowid DESC LIMIT 1",
  ).get(fp);
  return r ? toHold(r) : null;
}

export function getHold(db: Db, request_id: string): Hold | null {
  const r = stmt<HoldRecord>(db, 'SELECT * FROM hop_holds WHERE request_id = ?').get(request_id);
  return r ? toHold(r) : null;
}

export function insertHold(db: Db, h: Omit<Hold, 'status' | 'reason' | 'answered_by' | 'answered_at'>): void {
  stmt(
    db,
    `INSERT INTO hop_holds (request_id, fingerprint, chain_id, hop, agent, run_id, row_id, tool, target, input_json, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
  ).run(h.request_id, h.fingerprint, h.chain_id, h.hop, h.agent, h.run_id, h.row_id, h.tool, h.target, JSON.stringify(h.input ?? null), h.created_at);
  wroteWatched(db);
}

/** A person answered: pending → approved | refused. False when it was no longer pending. */
export function answerHold(db: Db, a: { request_id: string; approve: boolean; by: string | null; reason?: string | null; now: number }): boolean {
  const changed =
    stmt(db, "UPDATE hop_holds SET status = ?, answered_by = ?, reason = ?, answered_at = ? WHERE request_id = ? AND status = 'pending'").run(
      a.approve ? 'approved' : 'refused',
      a.by,
      a.reason ?? null,
      a.now,
      a.request_id,
    ).changes === 1;
  wroteWatched(db);
  return changed;
}

/** The approved hop proceeds: the approval is used up (single use). False if it was not approved. */
export function consumeHold(db: Db, request_id: string, now: number): boolean {
  const changed =
    stmt(db, "UPDATE hop_holds SET status = 'consumed', consumed_at = ? WHERE request_id = ? AND status = 'approved'").run(now, request_id).changes === 1;
  wroteWatched(db);
  return changed;
}

/**
 * Nobody answered within the hold's clock (the same 24 h as a parked row): pending → refused, with the expiry
 * sentence as its reason and nobody as its answerer. False when it was no longer pending.
 */
export function expireHold(db: Db, request_id: string, reason: string, now: number): boolean {
  const changed =
    stmt(db, "UPDATE hop_holds SET status = 'refused', reason = ?, answered_by = NULL, answered_at = ? WHERE request_id = ? AND status = 'pending'").run(
      reason,
      now,
      request_id,
    ).changes === 1;
  wroteWatched(db);
  return changed;
}

/** A refusal nobody gave: the hold's 24 h ran out (expireHold records no answerer and the expiry sentence). */
export const expiredUnanswered = (h: Pick<Hold, 'status' | 'answered_by' | 'reason'>): boolean =>
  h.status === 'refused' && h.answered_by === null && h.reason === APPROVAL_EXPIRED_TEXT;

/** When a hold expires unanswered: the same clock as a parked row. */
export const holdExpiresAt = (h: Pick<Hold, 'created_at'>): number => h.created_at + PARK_DURATION_MS;

/** pending → canceled; `why` (kept as its reason) says why it closed when nobody answered it. */
export function cancelHold(db: Db, request_id: string, now: number, why: string | null = null): boolean {
  const changed =
    stmt(db, "UPDATE hop_holds SET status = 'canceled', reason = COALESCE(?, reason), answered_at = ? WHERE request_id = ? AND status = 'pending'").run(
      why,
      now,
      request_id,
    ).changes === 1;
  wroteWatched(db);
  return changed;
}

export function pendingHolds(db: Db): Hold[] {
  return stmt<HoldRecord>(db, "SELECT * FROM hop_holds WHERE status = 'pending' ORDER BY created_at, rowid").all().map(toHold);
}

export function pendingHoldsOfRun(db: Db, run_id: string): Hold[] {
  return stmt<HoldRecord>(db, "SELECT * FROM hop_holds WHERE status = 'pending' AND run_id = ? ORDER BY created_at").all(run_id).map(toHold);
}
