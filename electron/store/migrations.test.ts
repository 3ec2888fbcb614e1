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
      migrate(
        db,
        MIGRATIONS.filter((x) => x.version <= m.version),
      );
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

describe('upgrading a database that holds data', () => {
  it('005 → 006: runs, rows, cards and tasks written before the upgrade read the same after it, through the new indexes', async () => {
    const { join } = await import('node:path');
    const { world } = await import('../../test/support/world.js');
    const { insertRun, listRunsPage } = await import('./queries/runs.js');
    const { insertRow, listRowsOfRunPage, countParkedOfRun } = await import('./queries/rows.js');
    const { transitionRow } = await import('./queries/row-updates.js');
    const { insertInboxItem } = await import('./queries/inbox.js');
    const { listPendingInboxPage } = await import('./queries/inbox-pages.js');
    const w = world();
    const dir = w.dir('migrate');
    const file = join(dir, 'nexus.db');
    try {
      const old = openDatabase(
        file,
        MIGRATIONS.filter((m) => m.version <= 5),
      );
      expect(old.pragma('user_version', { simple: true })).toBe(5);
      for (let i = 0; i < 3; i++) {
        insertRun(old, {
          id: `run_${i}`,
          agent: i ? 'lead' : null,
          mode: 'ask',
          rules: [],
          hooks: {},
          workspace: '/w',
          prompt: `p${i}`,
          parent: null,
          chain_id: null,
          created_by: null,
          now: 1000 + i,
        });
        for (let j = 0; j < 4; j++) {
          insertRow(old, {
            id: `row_${i}_${j}`,
            run_id: `run_${i}`,
            origin: 'author',
            wire_tool: 'bash',
            tool: 'bash',
            runner: null,
            input: { command: `echo ${j}` },
            round: null,
            on_failure: 'continue',
            now: 2000 + j,
          });
          if (j % 2 === 0) transitionRow(old, `row_${i}_${j}`, ['ready'], 'needs_approval', {}, 3000);
        }
      }
      insertInboxItem(old, { id: 'row_1_0', kind: 'autonomy', run_id: 'run_1', row_id: 'row_1_0', agent: 'lead', tool: 'bash', target: 'echo 0', now: 3000 });
      old
        .prepare(
          "INSERT INTO tasks (id, status, delegator, delegator_run_id, delegator_row_id, recipient, task, check_command, created_at, updated_at) VALUES ('task_a', 'open', 'lead', 'run_1', 'row_1_1', 'mid', 't', 'true', 4000, 4000)",
        )
        .run();
      old.close();

      const db = openDatabase(file);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
      expect(indexes).toEqual(expect.arrayContaining(['runs_by_agent_created', 'rows_parked_by_run', 'tasks_by_created']));
      expect(listRunsPage(db, { limit: 10 })!.map((r) => [r.id, r.prompt])).toEqual([
        ['run_2', 'p2'],
        ['run_1', 'p1'],
        ['run_0', 'p0'],
      ]);
      expect(listRunsPage(db, { limit: 10, agent: 'lead', cursor: 'run_2' })!.map((r) => r.id)).toEqual(['run_1']);
      expect(listRowsOfRunPage(db, { run_id: 'run_1', limit: 10 })!.map((r) => [r.id, r.state, (r.input as { command: string }).command])).toEqual([
        ['row_1_0', 'needs_approval', 'echo 0'],
        ['row_1_1', 'ready', 'echo 1'],
        ['row_1_2', 'needs_approval', 'echo 2'],
        ['row_1_3', 'ready', 'echo 3'],
      ]);
      expect(countParkedOfRun(db, 'run_1')).toBe(2);
      expect(listPendingInboxPage(db, { limit: 10 })!.map((c) => c.id)).toEqual(['row_1_0']);
      expect(db.prepare('SELECT id, task FROM tasks ORDER BY created_at DESC').all()).toEqual([{ id: 'task_a', task: 't' }]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      await w.cleanup();
    }
  });

  it('009 → 010: a chain counted by the old per-chain counter goes on after its last hop; old rows carry no hop', async () => {
    const { join } = await import('node:path');
    const { world } = await import('../../test/support/world.js');
    const { chainHopFloor } = await import('./queries/hops.js');
    const { HopNumbers } = await import('../governance/hop-numbers.js');
    const { insertChain, insertMemberRun } = await import('../../test/support/governance-db.js');
    const { tx } = await import('./db.js');
    const w = world();
    const file = join(w.dir('migrate'), 'nexus.db');
    try {
      const old = openDatabase(
        file,
        MIGRATIONS.filter((m) => m.version <= 9),
      );
      insertChain(old, 'c1', 5); // five hops counted by the old per-chain counter
      insertMemberRun(old, { run_id: 'r1', chain_id: 'c1', handoff: 'h1' });
      old
        .prepare(
          "INSERT INTO rows (id, run_id, seq, origin, wire_tool, tool, input_json, state, on_failure, created_at, updated_at) VALUES ('a', 'r1', 1, 'model', 'bash', 'bash', '{}', 'succeeded', 'continue', 0, 0)",
        )
        .run();
      old.close();

      const db = openDatabase(file);
      expect(db.pragma('user_version', { simple: true })).toBe(10);
      expect(db.prepare("SELECT hop FROM rows WHERE id = 'a'").pluck().get()).toBeNull();
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'hop_holds_live'").pluck().get()).toBe('hop_holds_live');
      expect(chainHopFloor(db, 'c1')).toBe(5);
      expect(tx(db, () => new HopNumbers().next(db, 'c1'))).toBe(6);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      await w.cleanup();
    }
  });
});
