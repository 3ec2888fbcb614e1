// Migrations numbered with PRAGMA user_version, each tested on :memory:.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate, openDatabase } from './db.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/types.js';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('migrations', () => {
  it('versions are unique and increasing, starting at 1 (001 kernel)', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(MIGRATIONS[0].name).toBe('kernel');
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
  });

  for (const m of MIGRATIONS) {
    it(`migration ${String(m.version).padStart(3, '0')} ${m.name} applies on :memory: and sets user_version`, () => {
      const db = new Database(':memory:');
      migrate(db, MIGRATIONS.filter((x) => x.version <= m.version));
      expect(db.pragma('user_version', { simple: true })).toBe(m.version);
      db.close();
    });
  }

  it('001 creates the kernel tables', () => {
    const db = new Database(':memory:');
    migrate(db, [MIGRATIONS[0]]);
    expect(tables(db)).toEqual(expect.arrayContaining(['agents', 'inbox', 'rows', 'run_events', 'runs']));
    db.close();
  });

  it('openDatabase brings a database to the newest version; reopening applies nothing twice', () => {
    const db = openDatabase(':memory:');
    const newest = MIGRATIONS[MIGRATIONS.length - 1].version;
    expect(db.pragma('user_version', { simple: true })).toBe(newest);
    expect(migrate(db)).toBe(newest);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('a failing migration rolls back whole and leaves user_version where it was', () => {
    const db = new Database(':memory:');
    const bad: Migration = {
      version: 2,
      name: 'bad',
      up(d) {
        d.exec('CREATE TABLE half (x)');
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, [MIGRATIONS[0], bad])).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).not.toContain('half');
    db.close();
  });

  it('refuses a database newer than this build, and duplicate versions', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 99');
    expect(() => migrate(db)).toThrow(/newer than this build/);
    const db2 = new Database(':memory:');
    expect(() => migrate(db2, [MIGRATIONS[0], { ...MIGRATIONS[0], name: 'again' }])).toThrow(/two migrations claim version 1/);
    db.close();
    db2.close();
  });
});
