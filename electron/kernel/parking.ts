// Parks: a row the stage held waits at `needs_approval` with an effect profile, a 24 h deadline and an autonomy
// card (inbox id = row id). It ends by approve (recorded `running` before it runs), deny, or the clock.
import { tx } from '../store/db.js';
import { getRun, touchRun } from '../store/queries/runs.js';
import { getRow } from '../store/queries/rows.js';
import { transitionRow, patchedRow, type RowPatch } from '../store/queries/row-updates.js';
import { getInboxItem, insertInboxItem, resolveInboxCardsOfRow, type InboxEntry } from '../store/queries/inbox.js';
import { insertRunEvent } from '../store/queries/events.js';
import { getAgent } from '../store/queries/agents.js';
import { listParkedDue, nextParkedDeadline } from '../store/queries/park-deadlines.js';
import { PARK_DURATION_MS } from '../../shared/types.js';
import { conflict, notFound } from './errors.js';
import * as results from './results.js';
import { buildEffect } from './effect.js';
import { unsandboxed } from './containment.js';
import { endParked } from './row-endings.js';
import { outboxCard, outboxDecision } from './desk-outbox.js';
import { executeRow } from './tool-execution.js';
import { grantTrust, type TrustChoice } from './trust.js';
import { isClientRun, toolFor } from './client-runs.js';
import { clientContainment } from '../../shared/containment.js';
import { assertOpen, disarmPark, emit, emitInbox, emitRow, type After, type KernelState } from './kernel-state.js';
import type { Row, Run } from './types.js';

/** A connected client's call: what contains its commands (the client's own sandbox, not NEXUS's). */
function clientMark(run: Run): { containment?: string } {
  if (!isClientRun(run)) return {};
  const client = run.created_by?.split(':')[1];
  return client === 'claude-code' || client === 'codex' ? { containment: clientContainment(client) } : {};
}

/** The stage held the row: parked in one transaction (inside the caller's); timer and events go to `after`. */
export function parkRow(k: KernelState, run: Run, row: Row, tool: string, matched: number[], after: After, parkMs?: number, escape?: string): Row {
  // The approver must read plainly that this agent's commands would run outside the OS sandbox.
  const effect = buildEffect(run, row, toolFor(k, run, row), tool, matched, !unsandboxed(k, run));
  const revoked = run.agent ? getAgent(k.db, run.agent)?.executor_revoked === true : false;
  const addressee = run.agent && !revoked ? `executor:${run.agent}` : null;
  const now = k.clock.now();
  // One deadline: the row, its card and the approval_required event all carry it, and the park clock keeps it.
  const waitMs = parkDuration(parkMs);
  const expires = now + waitMs;
  const patch: RowPatch = { tool, matched, addressee, effect, expires_at: expires };
  const required = { row_id: row.id, tool, target: effect.target, expires_at: new Date(expires).toISOString() };
  const card = tx(k.db, () => {
    if (!transitionRow(k.db, row.id, ['ready'], 'needs_approval', patch, now)) throw new Error('the row changed while it was being parked');
    const written = insertInboxItem(k.db, {
      id: row.id,
      kind: 'autonomy',
      run_id: run.id,
      row_id: row.id,
      agent: run.agent,
      tool,
      target: effect.target,
      addressee,
      expires_at: expires,
      data: { effect, trustable: run.agent !== null && !escape, origin: row.origin, ...(escape ? { escape } : {}), ...clientMark(run) },
      now,
    });
    insertRunEvent(k.db, { run_id: run.id, type: 'approval_required', data: required, now });
    touchRun(k.db, run.id, now);
    outboxCard(k, run, row, { tool, target: effect.target, expires_at: expires }, now);
    return written;
  });
  const parked = patchedRow(row, 'needs_approval', patch, now);
  after.push(() => {
    armPark(k, row.id, waitMs);
    announcePark(k, parked, required, card);
  });
  return parked;
}

/**
 * A park is committed: announce it from the values just written, with no re-read. Four audiences, four events:
 * the run's rows (row_state), its event log (approval_required), notifications (work_available), the inbox's
 * list (inbox_changed, carrying the card whole).
 */
function announcePark(k: KernelState, parked: Row, required: { row_id: string; tool: string; target: string; expires_at: string }, card: InboxEntry): void {
  emitRow(k, parked);
  emit(k, { type: 'run_event', run_id: parked.run_id, event: 'approval_required', data: required });
  const title = `${card.agent ?? 'Your run'} asks to run ${card.tool}: ${card.target}`;
  emit(k, { type: 'work_available', kind: 'approval', item_id: card.id, agent: card.agent, title });
  emitInbox(k, { added: [card] });
}

/** Approve a parked row: recorded `running` (granted_by person) before it runs. `card`: its card, when the caller holds it. */
export function approveRow(
  k: KernelState,
  row_id: string,
  opts: { by: string; trust_session?: boolean; trust_scope?: TrustChoice },
  card: InboxEntry | null = null,
): Row {
  assertOpen(k);
  const row = parkedRow(k, row_id);
  const run = getRun(k.db, row.run_id)!;
  // An escape card is answered once: trusting the session would grant its next escapes unasked.
  if (opts.trust_session && (card ?? getInboxItem(k.db, row_id))?.data.escape !== undefined)
    throw conflict(`Row ${row_id} asks to leave its client's sandbox; it can be approved once, never trusted for the session.`);
  const now = k.clock.now();
  let closed: string[] = [];
  const patch: RowPatch = { granted_by: 'person', approved_by: opts.by, started_at: now };
  const won = tx(k.db, () => {
    if (!transitionRow(k.db, row_id, ['needs_approval'], 'running', patch, now)) return false;
    closed = resolveInboxCardsOfRow(k.db, { row_id, status: 'approved', by: opts.by, now });
    const trust = opts.trust_session ? { trust_session: true, trust_scope: opts.trust_scope ?? 'agent' } : { trust_session: false };
    insertRunEvent(k.db, { run_id: run.id, type: 'approval_granted', data: { row_id, by: opts.by, ...trust }, now });
    outboxDecision(k, row_id, 'approved', opts.by, now);
    return true;
  });
  if (!won) throw conflict(`Row ${row_id} is no longer waiting for approval.`);
  disarmPark(k, row_id);
  // A new grant is announced as an agent change: windows listing the standing grants refresh.
  if (opts.trust_session && run.agent && grantTrust(k, run.agent, row, opts.trust_scope ?? 'agent', opts.by)) emit(k, { type: 'agents_changed' });
  // Announced from the value written, as a park is: no re-read.
  const running = patchedRow(row, 'running', patch, now);
  emitRow(k, running, { by: opts.by });
  emitInbox(k, { removed: closed.map((id) => ({ id, status: 'approved' })) });
  executeRow(k, run, running);
  return running;
}

/** Deny a parked row: failed approval_denied, the reason as error.detail. */
export function denyRow(k: KernelState, row_id: string, opts: { by: string; reason?: string }): Row {
  assertOpen(k);
  const row = parkedRow(k, row_id);
  const reason = opts.reason?.trim() ? opts.reason.trim() : undefined;
  const ended = endParked(
    k,
    row,
    'failed',
    { error: { code: 'approval_denied', detail: reason ?? 'Denied by a person.' }, result: results.deniedByPerson(reason) },
    'denied',
    opts.by,
    'approval_denied',
  );
  if (!ended) throw conflict(`Row ${row_id} is no longer waiting for approval.`);
  return ended;
}

/** The park clock ran out: timed_out approval_expired; the next round reads exactly APPROVAL_EXPIRED_TEXT. */
export function expireRow(k: KernelState, row_id: string): Row | null {
  const row = getRow(k.db, row_id);
  if (!row || row.state !== 'needs_approval') return null;
  return endParked(
    k,
    row,
    'timed_out',
    { error: { code: 'approval_expired', detail: results.expired().content[0].text }, result: results.expired() },
    'expired',
    null,
    'approval_expired',
  );
}

function parkedRow(k: KernelState, row_id: string): Row {
  const row = getRow(k.db, row_id);
  if (!row) throw notFound('row', row_id);
  if (row.state !== 'needs_approval') throw conflict(`Row ${row_id} is not waiting for approval (it is ${row.state}).`);
  return row;
}

/** A caller's wait, never longer than the usual 24 h (and never negative or not a number). */
const parkDuration = (ms: number | undefined): number =>
  ms === undefined || !Number.isFinite(ms) ? PARK_DURATION_MS : Math.min(PARK_DURATION_MS, Math.max(0, Math.round(ms)));

/** Start a parked row's deadline, `ms` from now. */
export function armPark(k: KernelState, row_id: string, ms: number): void {
  k.live.add(row_id);
  armParkClock(k, row_id, k.clock.now() + ms);
}

/**
 * The park clock keeps one timer, for the earliest deadline; a later one is read from the store when the clock
 * moves on. So start-up arms one timer however many rows are parked, and each row still expires at its deadline.
 */
export function armParkClock(k: KernelState, row_id: string, at: number): void {
  if (k.parkTimer && k.parkTimer.at <= at) return;
  if (k.parkTimer) k.clock.clearTimeout(k.parkTimer.handle);
  const handle = k.clock.setTimeout(() => parkClockDue(k), at - k.clock.now());
  k.parkTimer = { row_id, at, handle, next: () => armNextPark(k) };
}

/**
 * The earliest deadline came: every parked row due by now expires, earliest first; then the clock waits for the
 * next deadline after now (a row that failed to expire is tried again then, not at once, and never stops the rest).
 */
function parkClockDue(k: KernelState): void {
  k.parkTimer = null;
  if (k.phase !== 'started' && k.phase !== 'new') return;
  const now = k.clock.now();
  let failure: unknown = null;
  for (const id of listParkedDue(k.db, now)) {
    try {
      expireRow(k, id);
    } catch (e) {
      failure ??= e;
    }
  }
  armNextPark(k, now);
  if (failure) throw failure;
}

/** Arm the park clock for the first deadline after `after` (by default any, even one already past). */
function armNextPark(k: KernelState, after = -1): void {
  const next = nextParkedDeadline(k.db, after);
  if (next) armParkClock(k, next.id, next.expires_at);
}
