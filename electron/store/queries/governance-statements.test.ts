// The statements governance runs outside its own tables: Stop all's list of running runs, and a hold's
// answer closing its card. Plain query functions on a fresh :memory: store with every migration.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db.js';
import { endRun, insertRun, listRunningRunIds } from './runs.js';
import { getInboxItem, insertInboxItem, resolveInboxItem } from './inbox.js';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const run = (id: string, now: number) =>
  insertRun(db, {
    id,
    agent: null,
    mode: 'bypass',
    rules: [],
    hooks: null,
    workspace: '/w',
    prompt: null,
    parent: null,
    chain_id: null,
    created_by: null,
    now,
  });

describe('listRunningRunIds', () => {
  it('lists the running runs oldest first (ties in insertion order), never an ended one', () => {
    expect(listRunningRunIds(db)).toEqual([]);
    run('run_c', 300);
    run('run_a', 100);
    run('run_b2', 200);
    run('run_b1', 200);
    run('run_done', 50);
    expect(endRun(db, { id: 'run_done', status: 'canceled', now: 400 })).toBe(true);
    expect(listRunningRunIds(db)).toEqual(['run_a', 'run_b2', 'run_b1', 'run_c']);
  });
});

describe('resolveInboxItem (a hold answered closes its card)', () => {
  it('closes a pending card once, with how, when and by whom; a second answer changes nothing', () => {
    run('run_1', 100);
    insertInboxItem(db, { id: 'req_1', kind: 'orchestration', run_id: 'run_1', agent: 'mid', tool: 'bash', target: 'ls', now: 100 });
    expect(resolveInboxItem(db, { id: 'req_1', status: 'approved', by: 'person:cli', now: 200 })).toBe(true);
    expect(resolveInboxItem(db, { id: 'req_1', status: 'denied', by: 'person:window', now: 300 })).toBe(false);
    expect(resolveInboxItem(db, { id: 'req_missing', status: 'denied', now: 300 })).toBe(false);
    expect(db.prepare('SELECT status, resolved_at, resolved_by FROM inbox WHERE id = ?').get('req_1')).toEqual({
      status: 'approved',
      resolved_at: 200,
      resolved_by: 'person:cli',
    });
    expect(getInboxItem(db, 'req_1')?.status).toBe('approved');
  });
});
