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
// SQL compile only once. `stmt<R>(db, sql)` names the shape of the statement's result rows once, where its
// SQL is written (Signal's typed statements), so no caller casts what `get`/`all` return.
const caches = new WeakMap<Db, Map<string, Statement>>();
export function stmt<R = unknown, P extends unknown[] = unknown[]>(db: Db, sql: string): Database.Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  // The one place a result type is asserted: SQLite does not know TypeScript's types, the statement's author does.
  return s as Database.Statement<P, R>;
}

/** The SQL of every statement prepared on this connection so far (the query-plan test reads them). */
export const preparedSql = (db: Db): string[] => [...(caches.get(db)?.keys() ?? [])];

// One transaction wrapper per connection (creating a wrapper per call is measurable on the hot path).
const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

/** Run `fn` in a transaction (nested calls become savepoints: an exception rolls back only the inner part). */
export function tx<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((f: () => unknown) => f())));
  const outermost = !db.inTransaction;
  const w = outermost ? watches.get(db) : undefined;
  if (w) w.inTx = true;
  let levels = undoLevels.get(db);
  if (!levels) undoLevels.set(db, (levels = []));
  const undo: Array<() => void> = [];
  levels.push(undo);
  let kept = false;
  try {
    const out = run(fn) as T;
    kept = true;
    return out;
  } finally {
    levels.pop();
    if (kept)
      levels.at(-1)?.push(...undo); // released into the enclosing level, which may still roll back
    else for (let i = undo.length - 1; i >= 0; i--) undo[i]();
    if (w) {
      w.inTx = false;
      w.txVersion = undefined;
      // Committed or rolled back: what a watched table holds is settled again (see watchedRead).
      if (w.dirty) settle(w);
    }
  }
}

// Memory kept beside the store that must roll back with it (a number handed out inside a transaction is handed
// out again when that transaction, or the savepoint it was taken in, rolls back). Every transaction is begun by
// tx(), so the levels here are exactly SQLite's transaction and savepoints.
const undoLevels = new WeakMap<Db, Array<Array<() => void>>>();

/** Run `undo` if the innermost open tx() level rolls back; outside a transaction the change is already kept. */
export function onRollback(db: Db, undo: () => void): void {
  const top = undoLevels.get(db)?.at(-1);
  if (top) top.push(undo);
  else if (db.inTransaction) throw new Error('a transaction not begun by tx() is open: its rollback could not be followed');
}

// Small tables read at every governed hop (the settings, the entitlement) and written seldom. Seed 003 wants
// each hop to see the store as it is at that moment; it does not need a query per hop to know nothing changed.
// A read is cached with the two signals that say whether the store could differ: SQLite's PRAGMA data_version
// (changes when ANOTHER connection, in this process or any other, commits) and this connection's own
// generation, bumped by every write to a watched table (`wroteWatched`) and again when the transaction that
// wrote it ends, committed or rolled back. While this connection holds an uncommitted write, nothing is cached.
//
// Inside one transaction that tx() began, data_version is read once: from its first read on, the transaction sees
// one snapshot (and once it has written, no other connection can commit before it ends), so a second watched
// read in it (the gate reads the settings, then the entitlement) learns nothing new from asking again.
interface Watch {
  gen: number;
  dirty: boolean;
  readonly version: Statement;
  /** An outermost tx() transaction is open on this connection. */
  inTx: boolean;
  /** data_version as first read in that transaction; undefined outside one. */
  txVersion: unknown;
}
const watches = new WeakMap<Db, Watch>();
function watchOf(db: Db): Watch {
  let w = watches.get(db);
  if (!w) watches.set(db, (w = { gen: 0, dirty: false, version: db.prepare('PRAGMA data_version').pluck(), inTx: false, txVersion: undefined }));
  return w;
}
function dataVersion(w: Watch, db: Db): unknown {
  if (!w.inTx || !db.inTransaction) return w.version.get();
  return (w.txVersion ??= w.version.get());
}
function settle(w: Watch): void {
  w.dirty = false;
  w.gen++;
}

/** Say that a watched table was just written on this connection (every writer of settings/entitlement does). */
export function wroteWatched(db: Db): void {
  const w = watchOf(db);
  w.gen++;
  if (db.inTransaction) w.dirty = true;
}

/** `read` as a cached read: its answer is read again only when the store may hold something else (see above).
 *  Keep `read` pure, and make every writer of what it reads call wroteWatched. */
export function watchedRead<T>(read: (db: Db) => T): (db: Db) => T {
  const byKey = watchedReadBy((db: Db, _key: null) => read(db), 1);
  return (db) => byKey(db, null);
}

/** watchedRead with one answer per key (at most `max` remembered between two changes of the store). */
export function watchedReadBy<K, T>(read: (db: Db, key: K) => T, max = 1024): (db: Db, key: K) => T {
  const memo = new WeakMap<Db, { dv: unknown; gen: number; answers: Map<K, { value: T }> }>();
  return (db, key) => {
    const w = watchOf(db);
    if (w.dirty) {
      if (db.inTransaction) return read(db, key);
      settle(w);
    }
    const dv = dataVersion(w, db);
    let m = memo.get(db);
    if (!m || m.dv !== dv || m.gen !== w.gen) memo.set(db, (m = { dv, gen: w.gen, answers: new Map() }));
    const hit = m.answers.get(key);
    if (hit) return hit.value;
    const value = read(db, key);
    if (m.answers.size >= max) m.answers.clear();
    m.answers.set(key, { value });
    return value;
  };
}
