// The inbox: one card per thing waiting on a person. Autonomy cards (parked rows) use the row id as their
// id; other kinds (orchestration holds, attention items, questions) are added by their modules.
import { stmt, type Db } from '../db.js';
import type { InboxItem, InboxKind } from '../../../shared/types.js';
import { iso, isoOr, parseJson, toJson } from './util.js';

interface InboxRecord {
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

const toItem = (r: InboxRecord): InboxEntry => {
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

export function insertInboxItem(db: Db, a: InsertInboxItem): void {
  stmt(
    db,
    `INSERT INTO inbox (id, kind, status, run_id, row_id, agent, tool, target, addressee, hop, chain_id, expires_at, data_json, created_at)
     VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(a.id, a.kind, a.run_id, a.row_id ?? null, a.agent, a.tool, a.target, a.addressee ?? null, a.hop ?? null, a.chain_id ?? null, a.expires_at ?? null, toJson(a.data ?? {}), a.now);
}

export function getInboxItem(db: Db, id: string): InboxEntry | null {
  const r = stmt(db, 'SELECT * FROM inbox WHERE id = ?').get(id) as InboxRecord | undefined;
  return r ? toItem(r) : null;
}

export function listPendingInbox(db: Db): InboxEntry[] {
  return (stmt(db, "SELECT * FROM inbox WHERE status = 'pending' ORDER BY created_at, rowid").all() as InboxRecord[]).map(toItem);
}

export function countPendingInbox(db: Db): number {
  return (stmt(db, "SELECT COUNT(*) AS n FROM inbox WHERE status = 'pending'").get() as { n: number }).n;
}

/** Close a pending card. Returns false when it was no longer pending. */
export function resolveInboxItem(db: Db, a: { id: string; status: string; by?: string | null; now: number }): boolean {
  return stmt(db, "UPDATE inbox SET status = ?, resolved_at = ?, resolved_by = ? WHERE id = ? AND status = 'pending'").run(a.status, a.now, a.by ?? null, a.id).changes === 1;
}

/** Close the pending card(s) of a row (a row has at most one autonomy card). */
export function resolveInboxForRow(db: Db, a: { row_id: string; status: string; by?: string | null; now: number }): number {
  return stmt(db, "UPDATE inbox SET status = ?, resolved_at = ?, resolved_by = ? WHERE row_id = ? AND status = 'pending'").run(a.status, a.now, a.by ?? null, a.row_id).changes;
}

export function setInboxAddressee(db: Db, a: { row_id: string; addressee: string | null }): void {
  stmt(db, "UPDATE inbox SET addressee = ? WHERE row_id = ? AND status = 'pending'").run(a.addressee, a.row_id);
}

/** A held row's card gets an earlier deadline (a connected client's call waits only as long as its hook). */
export function setInboxExpiry(db: Db, a: { row_id: string; expires_at: number }): void {
  stmt(db, "UPDATE inbox SET expires_at = ? WHERE row_id = ? AND status = 'pending'").run(a.expires_at, a.row_id);
}
