// The inbox: one card per thing waiting on a person. Autonomy cards (parked rows) use the row id as their
// id; other kinds (orchestration holds, attention items, questions) are added by their modules.
import { answersOf } from '../../../shared/inbox/answers.js';
import { z } from 'zod';
import { stmt, type Db } from '../db.js';
import type { InboxKind } from '../../../shared/types.js';
import type { InboxItem } from '../../../shared/api/inbox.js';
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

/** What narrows a page of pending cards: every field is optional and they combine with AND. */
export interface InboxFilter {
  agent?: string | null;
  kind?: string;
  run_id?: string;
  chain_id?: string;
  /** Case-insensitive substring of the tool or target. */
  text?: string;
}

function filterSql(f: InboxFilter): { where: string; args: unknown[] } {
  const parts = ["status = 'pending'"];
  const args: unknown[] = [];
  const equals = (column: string, value: unknown) => {
    parts.push(`${column} = ?`);
    args.push(value);
  };
  if (f.agent === null) parts.push('agent IS NULL');
  else if (f.agent !== undefined) equals('agent', f.agent);
  if (f.kind !== undefined) equals('kind', f.kind);
  if (f.run_id !== undefined) equals('run_id', f.run_id);
  if (f.chain_id !== undefined) equals('chain_id', f.chain_id);
  if (f.text) {
    // LIKE with its wildcards escaped: the person's text is matched literally.
    const like = `%${f.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push("(lower(tool) LIKE ? ESCAPE '\\' OR lower(target) LIKE ? ESCAPE '\\')");
    args.push(like, like);
  }
  return { where: parts.join(' AND '), args };
}

/**
 * A page of pending cards, oldest first, after the card `cursor` (its id; a cursor that is no longer pending
 * still works: the page starts after where it stood). Keyset paging on (created_at, rowid): no OFFSET scan.
 * Null when no card ever had the cursor's id.
 */
export function listPendingInboxPage(db: Db, a: { limit: number; cursor?: string; filter?: InboxFilter }): InboxEntry[] | null {
  const { where, args } = filterSql(a.filter ?? {});
  if (a.cursor !== undefined) {
    const at = stmt<{ created_at: number; rid: number }>(db, 'SELECT created_at, rowid AS rid FROM inbox WHERE id = ?').get(a.cursor);
    if (!at) return null;
    return stmt<InboxRecord>(db, `SELECT * FROM inbox WHERE ${where} AND (created_at > ? OR (created_at = ? AND rowid > ?)) ORDER BY created_at, rowid LIMIT ?`)
      .all(...args, at.created_at, at.created_at, at.rid, a.limit)
      .map(toItem);
  }
  return stmt<InboxRecord>(db, `SELECT * FROM inbox WHERE ${where} ORDER BY created_at, rowid LIMIT ?`)
    .all(...args, a.limit)
    .map(toItem);
}

/** How many pending cards a filter selects, and their groups (by agent, run and chain) with counts. */
export function summarizePendingInbox(
  db: Db,
  f: InboxFilter = {},
): {
  total: number;
  by_agent: { key: string | null; count: number }[];
  by_run: { key: string; agent: string | null; count: number }[];
  by_chain: { key: string; count: number }[];
} {
  const { where, args } = filterSql(f);
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM inbox WHERE ${where}`).get(...args) as { n: number }).n;
  const by_agent = stmt<{
    key: string | null;
    count: number;
  }>(db, `SELECT agent AS key, COUNT(*) AS count FROM inbox WHERE ${where} GROUP BY agent ORDER BY count DESC LIMIT 200`).all(...args);
  const by_run = stmt<{ key: string; agent: string | null; count: number }>(
    db,
    `SELECT run_id AS key, MIN(agent) AS agent, COUNT(*) AS count FROM inbox WHERE ${where} GROUP BY run_id ORDER BY count DESC LIMIT 200`,
  ).all(...args);
  const by_chain = stmt<{ key: string; count: number }>(
    db,
    `SELECT chain_id AS key, COUNT(*) AS count FROM inbox WHERE ${where} AND chain_id IS NOT NULL GROUP BY chain_id ORDER BY count DESC LIMIT 200`,
  ).all(...args);
  return { total, by_agent, by_run, by_chain };
}

/** The ids of every pending card a filter selects (for "select all matching", answered in bulk). */
export function pendingInboxIds(db: Db, f: InboxFilter = {}, limit = 100_000): string[] {
  const { where, args } = filterSql(f);
  return stmt<{ id: string }>(db, `SELECT id FROM inbox WHERE ${where} ORDER BY created_at, rowid LIMIT ?`)
    .all(...args, limit)
    .map((r) => r.id);
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
