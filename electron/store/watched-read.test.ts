// A watched read of a table (the settings, the entitlement) answers what the store holds at that moment:
// a write by this connection, by another connection, by another process, and a rolled-back write are all seen
// by the very next read; only an unchanged store is answered from memory.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openDatabase, stmt, tx, watchedRead, watchedReadBy, wroteWatched, type Db } from './db.js';
import { readSettings, writeSetting } from './queries/settings.js';
import { world } from '../../test/support/world.js';

let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});
function fresh(): { path: string; db: Db } {
  const path = join(w.dir('cached'), 'nexus.db');
  return { path, db: open(path) };
}
const open = (path: string) => {
  const db = openDatabase(path);
  w.defer(() => void db.close());
  return db;
};

describe('watchedRead', () => {
  it('reads once while nothing changes, and again after a write by this connection', () => {
    const { db } = fresh();
    let reads = 0;
    const cached = watchedRead((d) => (reads++, stmt(d, "SELECT value_json FROM settings WHERE key = 'x'").pluck().get()));
    const read = () => cached(db);
    expect(read()).toBeUndefined();
    expect(read()).toBeUndefined();
    expect(reads).toBe(1);
    stmt(db, "INSERT INTO settings (key, value_json, updated_at) VALUES ('x', '1', 0)").run();
    wroteWatched(db);
    expect(read()).toBe('1');
    expect(reads).toBe(2);
  });

  it('a rolled-back write is not remembered: inside the transaction it is seen, after the rollback it is gone', () => {
    const { db } = fresh();
    const cached = watchedRead((d) => stmt(d, "SELECT value_json FROM settings WHERE key = 'x'").pluck().get());
    const read = () => cached(db);
    expect(read()).toBeUndefined();
    expect(() =>
      tx(db, () => {
        stmt(db, "INSERT INTO settings (key, value_json, updated_at) VALUES ('x', '2', 0)").run();
        wroteWatched(db);
        expect(read()).toBe('2');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(read()).toBeUndefined();
  });
});

describe('watchedRead inside transactions (as the gate reads, one hop per transaction)', () => {
  it("asks SQLite once per transaction, and the next transaction sees another connection's commit", () => {
    const { path, db } = fresh();
    const other = open(path);
    let reads = 0;
    const setting = watchedRead((d) => (reads++, stmt(d, "SELECT value_json FROM settings WHERE key = 'x'").pluck().get()));
    const agents = watchedRead((d) => stmt(d, 'SELECT count(*) FROM agents').pluck().get());
    // A hop: the transaction writes first (the row), then reads both watched tables.
    const hop = () =>
      tx(db, () => {
        stmt(db, "INSERT OR REPLACE INTO desk_state (key, value_json) VALUES ('probe', '1')").run();
        return [setting(db), agents(db)];
      });
    expect(hop()).toEqual([undefined, 0]);
    expect(hop()).toEqual([undefined, 0]);
    expect(reads).toBe(1);
    stmt(other, "INSERT INTO settings (key, value_json, updated_at) VALUES ('x', '1', 0)").run();
    expect(hop()).toEqual(['1', 0]);
    expect(reads).toBe(2);
    // Outside any transaction, and in one this connection did not begin through tx(), SQLite is asked each time.
    stmt(other, "UPDATE settings SET value_json = '2' WHERE key = 'x'").run();
    expect(setting(db)).toBe('2');
    stmt(other, "UPDATE settings SET value_json = '3' WHERE key = 'x'").run();
    expect(db.transaction(() => setting(db))()).toBe('3');
  });
});

describe('watchedReadBy: one remembered answer per key', () => {
  it('reads each key once while nothing changes; a write forgets every key; at most `max` keys are kept', () => {
    const { path, db } = fresh();
    const reads: string[] = [];
    const byKey = watchedReadBy((d, key: string) => (reads.push(key), stmt(d, 'SELECT value_json FROM settings WHERE key = ?').pluck().get(key)), 2);
    expect([byKey(db, 'a'), byKey(db, 'b'), byKey(db, 'a'), byKey(db, 'b')]).toEqual([undefined, undefined, undefined, undefined]);
    expect(reads).toEqual(['a', 'b']);
    stmt(db, "INSERT INTO settings (key, value_json, updated_at) VALUES ('a', '1', 0)").run();
    wroteWatched(db);
    expect([byKey(db, 'a'), byKey(db, 'b')]).toEqual(['1', undefined]);
    expect(reads).toEqual(['a', 'b', 'a', 'b']);
    stmt(open(path), "INSERT INTO settings (key, value_json, updated_at) VALUES ('b', '2', 0)").run(); // another connection
    expect(byKey(db, 'b')).toBe('2');
    byKey(db, 'a');
    byKey(db, 'c'); // a third key: the remembered ones are let go, never answered wrongly
    expect(byKey(db, 'a')).toBe('1');
    expect(reads).toEqual(['a', 'b', 'a', 'b', 'b', 'a', 'c', 'a']);
  });
});

describe('readSettings sees every change at the next read', () => {
  it('by this connection (writeSetting), by another connection, by another process', () => {
    const { path, db } = fresh();
    expect(readSettings(db)['orchestration.maxDepth']).toBe(3);
    writeSetting(db, 'orchestration.maxDepth', 5, 1);
    expect(readSettings(db)['orchestration.maxDepth']).toBe(5);

    const other = open(path);
    writeSetting(other, 'orchestration.maxDepth', 6, 2);
    expect(readSettings(db)['orchestration.maxDepth']).toBe(6);

    const sql = `UPDATE settings SET value_json = '7' WHERE key = 'orchestration.maxDepth'`;
    execFileSync(
      process.execPath,
      ['-e', `const D=require('better-sqlite3');const d=new D(${JSON.stringify(path)});d.prepare(${JSON.stringify(sql)}).run();d.close()`],
      {
        cwd: process.cwd(),
      },
    );
    expect(readSettings(db)['orchestration.maxDepth']).toBe(7);
  });

  it('a setting written inside a transaction that then rolls back is not seen after it', () => {
    const { db } = fresh();
    expect(readSettings(db)['orchestration.enabled']).toBe(false);
    expect(() =>
      tx(db, () => {
        writeSetting(db, 'orchestration.enabled', true, 1);
        expect(readSettings(db)['orchestration.enabled']).toBe(true);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(readSettings(db)['orchestration.enabled']).toBe(false);
  });

  it('answers a frozen value, so no caller can change what the next one reads', () => {
    const { db } = fresh();
    expect(Object.isFrozen(readSettings(db))).toBe(true);
  });
});
