// The inbox: one card per thing waiting on a person. Autonomy cards (parked rows) use the row id as their
// id; other kinds (orchestration holds, attention items, questions) are added by their modules.
import { answersOf } from '../../../shared/inbox/answers.js';
import { z } from 'zod';
import { stmt, type Db } from '../db.js';
import type { InboxKind } from '../../../shared/types.js';
import type { InboxItem } from '../../../shared/api/inbox.js';
import { iso, isoOr, parseJson, toJson } from './util.js';

export interface InboxRecord {
  id: string;
  kind: InboxKind;
  status: string;
  run_id: string;
  row_id: string | null;
  agent: string | null;
  tool: string;
  target: string;
  addressee: string | null;
  hop: number | null;
  chain_id: string | null;
  expires_at: number | null;
  data_json: string | null;
  created_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
}

export interface InboxEntry extends InboxItem {
  status: string;
  addressee: string | null;
  data: Record<string, unknown>;
}

export const toItem = (r: InboxRecord): InboxEntry => {
  const data = parseJson<Record<string, unknown>>(r.data_json, {});
  const item: InboxEntry = {
    id: r.id,
    kind: r.kind,
    agent: r.agent,
    tool: r.tool,
    target: r.target,
    run_id: r.run_id,
    created_at: isoOr(r.created_at),
    status: r.status,
    addressee: r.addressee,
    data,
  };
  if (r.row_id) item.row_id = r.row_id;
  if (r.hop != null) item.hop = r.hop;
  if (r.chain_id) item.chain_id = r.chain_id;
  if (r.expires_at != null) item.expires_at = iso(r.expires_at)!;
  if (data.effect !== undefined) item.effect = data.effect as InboxItem['effect'];
  if (typeof data.message === 'string') item.message = data.message;
  if (typeof data.trustable === 'boolean') item.trustable = data.trustable;
  item.answers = [...answersOf(item)];
  if (typeof data.escape === 'string') item.escape = data.escape;
  if (typeof data.containment === 'string') item.containment = data.containment;
  return item;
};

export interface InsertInboxItem {
  id: string;
  kind: InboxKind;
  run_id: string;
  row_id?: string | null;
  agent: string | null;
  tool: string;
  target: string;
  addressee?: string | null;
  hop?: number | null;
  chain_id?: string | null;
  expires_at?: number | null;
  data?: Record<string, unknown>;
  now: number;
}

/** Write a pending card; returns it as a read would (the same mapping), so who announces it needs no re-read. */
export function insertInboxItem(db: Db, a: InsertInboxItem): InboxEntry {
  const r: InboxRecord = {
    id: a.id,
    kind: a.kind,
    status: 'pending',
    run_id: a.run_id,
    row_id: a.row_id ?? null,
    agent: a.agent,
    tool: a.tool,
    target: a.target,
    addressee: a.addressee ?? null,
    hop: a.hop ?? null,
    chain_id: a.chain_id ?? null,
    expires_at: a.expires_at ?? null,
    data_json: toJson(a.data ?? {}),
    created_at: a.now,
    resolved_at: null,
    resolved_by: null,
  };
  stmt(
    db,
    `INSERT INTO inbox (id, kind, status, run_id, row_id, agent, tool, target, addressee, hop, chain_id, expires_at, data_json, created_at)
     VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(r.id, r.kind, r.run_id, r.row_id, r.agent, r.tool, r.target, r.addressee, r.hop, r.chain_id, r.expires_at, r.data_json, r.created_at);
  return toItem(r);
}

export function getInboxItem(db: Db, id: string): InboxEntry | null {
  const r = stmt<InboxRecord>(db, 'SELECT * FROM inbox WHERE id = ?').get(id);
  return r ? toItem(r) : null;
}

export function listPendingInbox(db: Db): InboxEntry[] {
  return stmt<InboxRecord>(db, "SELECT * FROM inbox WHERE status = 'pending' ORDER BY created_at, rowid").all().map(toItem);
}

/** The pending cards of some kinds only (start-up's sweep of questions and attention cards skips the rest). */
export function listPendingInboxOfKinds(db: Db, kinds: readonly InboxKind[]): InboxEntry[] {
  return stmt<InboxRecord>(db, "SELECT * FROM inbox WHERE status = 'pending' AND kind IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid")
    .all(JSON.stringify(kinds))
    .map(toItem);
}

export function countPendingInbox(db: Db): number {
  return (stmt(db, "SELECT COUNT(*) AS n FROM inbox WHERE status = 'pending'").get() as { n: number }).n;
}

/** Close a pending card. Returns false when it was no longer pending. */
export function resolveInboxItem(db: Db, a: { id: string; status: string; by?: string | null; now: number }): boolean {
  return (
    stmt(db, "UPDATE inbox SET status = ?, resolved_at = ?, resolved_by = ? WHERE id = ? AND status = 'pending'").run(a.status, a.now, a.by ?? null, a.id)
      .changes === 1
  );
}

/** Close the pending card(s) of a row and say which closed (their ids, for the window's incremental update). */
export function resolveInboxCardsOfRow(db: Db, a: { row_id: string; status: string; by?: string | null; now: number }): string[] {
  return stmt<{ id: string }>(db, "UPDATE inbox SET status = ?, resolved_at = ?, resolved_by = ? WHERE row_id = ? AND status = 'pending' RETURNING id")
    .all(a.status, a.now, a.by ?? null, a.row_id)
    .map((r) => r.id);
}

/** Close the pending card(s) of a row (a row has at most one autonomy card). */
export function resolveInboxForRow(db: Db, a: { row_id: string; status: string; by?: string | null; now: number }): number {
  return stmt(db, "UPDATE inbox SET status = ?, resolved_at = ?, resolved_by = ? WHERE row_id = ? AND status = 'pending'").run(
    a.status,
    a.now,
    a.by ?? null,
    a.row_id,
  ).changes;
}

export function setInboxAddressee(db: Db, a: { row_id: string; addressee: string | null }): void {
  stmt(db, "UPDATE inbox SET addressee = ? WHERE row_id = ? AND status = 'pending'").run(a.addressee, a.row_id);
}

/** A card as the API and the window's events carry it: the stored bookkeeping (status, data) left out. */
export function inboxWire(i: InboxEntry): InboxItem & { addressee?: string | null } {
  const { status, addressee, data, ...item } = i;
  return { ...item, ...(addressee !== undefined ? { addressee } : {}) };
}

const ResolvedRow = z.object({ status: z.string(), resolved_by: z.string().nullable() }).optional();

/** Who resolved a card (null while pending, or when the clock or a stop ended it). */
export function inboxResolvedBy(db: Db, id: string): { status: string; by: string | null } | null {
  const r = ResolvedRow.parse(stmt(db, 'SELECT status, resolved_by FROM inbox WHERE id = ?').get(id));
  return r ? { status: r.status, by: r.resolved_by } : null;
}
