// Pending cards as the window and the CLI page through them: a filter (agent, kind, run, chain, text), keyset
// pages, the filter's summary by group, and every id it selects (answered in bulk). The cards' own life (insert,
// resolve, readdress) is inbox.ts.
import { stmt, type Db } from '../db.js';
import { toItem, type InboxEntry, type InboxRecord } from './inbox.js';

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
  const n: unknown = stmt(db, `SELECT COUNT(*) FROM inbox WHERE ${where}`)
    .pluck()
    .get(...args);
  const total = typeof n === 'number' ? n : 0;
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
