// The gate's statements: a run's place in its chain (gatePlace), where its hop numbering goes on from
// (chainHopFloor), and whether it holds a live hold (chainHasLiveHolds). A fresh :memory: store with every migration.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, wroteWatched, type Db } from '../db.js';
import { chainHasLiveHolds, chainHopFloor, gatePlace } from './hops.js';
import { cancelHold, insertHold } from './holds.js';
import { insertChain, insertHopRow, insertMemberRun } from '../../../test/support/governance-db.js';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  insertChain(db, 'c1');
});
afterEach(() => db.close());

const hold = (request_id: string, fingerprint: string, status: string, chain_id = 'c1') =>
  db
    .prepare(
      `INSERT INTO hop_holds (request_id, fingerprint, chain_id, hop, agent, run_id, row_id, tool, target, input_json, status, created_at)
       VALUES (?, ?, ?, 2, 'mid', 'r1', 'row1', 'bash', 't', '{}', ?, 0)`,
    )
    .run(request_id, fingerprint, chain_id, status);

describe('chainHopFloor', () => {
  it("is the chain's counter while no member row holds a higher hop (a new chain: its hand-off, hop 1)", () => {
    expect(chainHopFloor(db, 'c1')).toBe(1);
    db.prepare("UPDATE chains SET hop_count = 4 WHERE id = 'c1'").run(); // counted before migration 010
    expect(chainHopFloor(db, 'c1')).toBe(4);
  });

  it("is the highest hop on any member run's row, and counts no other chain's rows", () => {
    insertMemberRun(db, { run_id: 'r1', chain_id: 'c1', handoff: 'h1' });
    insertMemberRun(db, { run_id: 'r2', chain_id: 'c1', handoff: 'h2' });
    insertHopRow(db, { id: 'a', run_id: 'r1', seq: 1, hop: 2 });
    insertHopRow(db, { id: 'b', run_id: 'r2', seq: 1, hop: 7 });
    insertHopRow(db, { id: 'c', run_id: 'r2', seq: 2, hop: null }); // a call that was not a governed hop
    insertChain(db, 'c2');
    insertMemberRun(db, { run_id: 'r3', chain_id: 'c2', handoff: 'h3' });
    insertHopRow(db, { id: 'd', run_id: 'r3', seq: 1, hop: 40 });
    expect(chainHopFloor(db, 'c1')).toBe(7);
    expect(chainHopFloor(db, 'c2')).toBe(40);
  });

  it('a chain that does not exist has none', () => {
    expect(chainHopFloor(db, 'nope')).toBeNull();
  });
});

describe('chainHasLiveHolds', () => {
  it.each(['pending', 'approved', 'refused'])('a %s hold binds its chain, and only its chain', (status) => {
    expect(chainHasLiveHolds(db, 'c1')).toBe(false);
    hold('h1', 'fp', status);
    wroteWatched(db);
    expect(chainHasLiveHolds(db, 'c1')).toBe(true);
    expect(chainHasLiveHolds(db, 'c2')).toBe(false);
  });

  it.each(['consumed', 'canceled'])('a %s hold binds nothing', (status) => {
    hold('h1', 'fp', status);
    expect(chainHasLiveHolds(db, 'c1')).toBe(false);
  });

  it("is read again once holds.ts writes a hold: a remembered 'none' never hides a new hold", () => {
    expect(chainHasLiveHolds(db, 'c1')).toBe(false);
    insertHold(db, {
      request_id: 'h9',
      fingerprint: 'fp',
      chain_id: 'c1',
      hop: 2,
      agent: 'mid',
      run_id: 'r1',
      row_id: 'row1',
      tool: 'bash',
      target: 't',
      input: {},
      created_at: 0,
    });
    expect(chainHasLiveHolds(db, 'c1')).toBe(true);
    expect(cancelHold(db, 'h9', 1)).toBe(true);
    expect(chainHasLiveHolds(db, 'c1')).toBe(false);
  });
});

describe('gatePlace', () => {
  const member = (handoff: string, run_id: string | null, path = '["lead"]') =>
    db
      .prepare("INSERT INTO chain_runs (handoff_row_id, run_id, chain_id, agent, depth, path_json, created_at) VALUES (?, ?, 'c1', 'mid', 2, ?, 0)")
      .run(handoff, run_id, path);

  it('reads the chain, whom it touched and the run position, by the run and else by its parent hand-off row', () => {
    db.prepare(`UPDATE chains SET touched_json = '["lead","mid"]' WHERE id = 'c1'`).run();
    member('h1', 'r1');
    member('h2', null);
    const place = { chain_id: 'c1', touched: ['lead', 'mid'], agent: 'mid', depth: 2, path: ['lead'] };
    expect(gatePlace(db, { id: 'r1' })).toEqual(place);
    expect(gatePlace(db, { id: 'r2', parent: { row_id: 'h2' } })).toEqual(place);
  });

  it('a run no chain started has no place', () => {
    expect(gatePlace(db, { id: 'lone' })).toBeNull();
    expect(gatePlace(db, { id: 'lone', parent: { row_id: 'nobody' } })).toBeNull();
  });

  it('a malformed stored position refuses (the gate fails closed), never reads as no place', () => {
    member('h1', 'r1', '[1]');
    expect(() => gatePlace(db, { id: 'r1' })).toThrow(/malformed/);
  });
});
