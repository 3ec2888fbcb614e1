// Whole-database maintenance, run by the kernel at start-up only.
import type { Db } from '../db.js';

/** Rebuild the file (VACUUM) and empty the write-ahead log, so no freed page or old log frame keeps a copy of
 *  what was deleted or overwritten (secrets that moved out of the database). */
export function compactAndForget(db: Db): void {
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
