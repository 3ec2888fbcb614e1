// The stored entitlement token (migrations 003/004): one row, id 1. Verification lives in governance
// (entitlements.ts); these statements only keep and read what it verified. Every writer calls wroteWatched,
// because the gate reads the row through a watched read (db.ts).
import { stmt, watchedRead, wroteWatched, type Db } from '../db.js';

/** Where a stored token came from: the account service (refresh) or a person's import of a file. */
export type EntitlementSource = 'account' | 'import';

export interface EntitlementRow {
  token: string;
  subject: string | null;
  ent_json: string;
  exp: number;
  key_fingerprint: string;
  imported_at: number;
  source: EntitlementSource;
}

/** Store (replacing the previous token) what was just verified. */
export function upsertEntitlement(db: Db, a: Omit<EntitlementRow, 'ent_json'> & { ent: string[] }): void {
  stmt(
    db,
    `INSERT INTO entitlement (id, token, subject, ent_json, exp, key_fingerprint, imported_at, source) VALUES (1, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET token = excluded.token, subject = excluded.subject, ent_json = excluded.ent_json,
       exp = excluded.exp, key_fingerprint = excluded.key_fingerprint, imported_at = excluded.imported_at, source = excluded.source`,
  ).run(a.token, a.subject, JSON.stringify(a.ent), a.exp, a.key_fingerprint, a.imported_at, a.source);
  wroteWatched(db);
}

/** The stored token now counts as verified under the key with this fingerprint. */
export function rekeyEntitlement(db: Db, key_fingerprint: string): void {
  stmt(db, 'UPDATE entitlement SET key_fingerprint = ? WHERE id = 1').run(key_fingerprint);
  wroteWatched(db);
}

export const getEntitlement = (db: Db) =>
  stmt<EntitlementRow>(db, 'SELECT token, subject, ent_json, exp, key_fingerprint, imported_at, source FROM entitlement WHERE id = 1').get();

/** What the gate reads at every hop: read again only when the store may hold something else. */
export const gateEntitlementRow = watchedRead((db) =>
  stmt<Pick<EntitlementRow, 'ent_json' | 'exp' | 'key_fingerprint'>>(db, 'SELECT ent_json, exp, key_fingerprint FROM entitlement WHERE id = 1').get(),
);
