// The store: one better-sqlite3 connection per data dir, WAL + synchronous=NORMAL, foreign keys on,
// numbered migrations tracked by PRAGMA user_version (DESIGN §2). ONE writer: the kernel process owns the
// connection; every other process reaches the data through the kernel's doors, never the file.
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import { databaseOptions } from './native-binding.js';

export type Db = Database.Database;
export type Statement = Database.Statement;

/** Open (creating if needed) the database at `path` (or ':memory:') and bring it to the newest schema. */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  const db = new Database(path, databaseOptions()); // Electron loads its own ABI build (native-binding.ts)
  try {
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Apply every migration newer than the database's user_version, each in its own transaction. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (!Number.isInteger(m.version) || m.version < 1) throw new Error(`migration ${m.name}: version must be a positive integer`);
    if (i > 0 && sorted[i - 1].version === m.version) throw new Error(`two migrations claim version ${m.version}: ${sorted[i - 1].name}, ${m.name}`);
  });
  const newest = sorted.length ? sorted[sorted.length - 1].version : 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > newest) {
    throw new Error(`this database is at schema version ${current}, newer than this build knows (${newest}); refusing to open it`);
  }
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

// Prepared statements are cached per connection: queries call `stmt(db, sql)` on every use and pay the
// SQL compile only once.
const caches = new WeakMap<Db, Map<string, Statement>>();
export function stmt(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
}

/** The SQL of every statement prepared on this connection so far (the query-plan test reads them). */
export const preparedSql = (db: Db): string[] => [...(caches.get(db)?.keys() ?? [])];

// One transaction wrapper per connection (creating a wrapper per call is measurable on the hot path).
const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

/** Run `fn` in a transaction (nested calls become savepoints: an exception rolls back only the inner part). */
export function tx<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((f: () => unknown) => f())));
  return run(fn) as T;
}
