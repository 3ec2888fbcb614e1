// The park clock's reads: which parked row's deadline comes first, and which have come. Both read the partial
// index rows_parked_deadline, so the clock costs the same with 10 or 10,000 rows parked.
import { stmt, type Db } from '../db.js';

/** The parked row whose deadline comes first after `after` (the park clock waits for it), or null when none. */
export function nextParkedDeadline(db: Db, after: number): { id: string; expires_at: number } | null {
  return (
    stmt<{ id: string; expires_at: number }>(
      db,
      "SELECT id, expires_at FROM rows WHERE state = 'needs_approval' AND expires_at > ? ORDER BY expires_at, rowid LIMIT 1",
    ).get(after) ?? null
  );
}

/** Ids of the parked rows whose deadline has come by `now`, earliest first (in the order they were written). */
export function listParkedDue(db: Db, now: number): string[] {
  return stmt<{ id: string }>(db, "SELECT id FROM rows WHERE state = 'needs_approval' AND expires_at <= ? ORDER BY expires_at, rowid")
    .all(now)
    .map((r) => r.id);
}
