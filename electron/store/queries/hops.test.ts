// The gate's statements: a run's place in its chain (gatePlace), and the hop counter folded with the hold lookup
// (nextHopUnlessHeld: a number is allocated exactly when no live hold is bound to the fingerprint, as the two
// statements it replaced did). A fresh :memory: store with every migration.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db.js';
import { gatePlace, nextHopUnlessHeld } from './hops.js';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  db.prepare(
    "INSERT INTO chains (id, starter, starter_run_id, touched_json, hop_count, created_at, updated_at) VALUES ('c1', 'lead', 'r0', '[]', 1, 0, 0)",
  ).run();
});
afterEach(() => db.close());

const hold = (request_id: string, fingerprint: string, status: string) =>
  db
    .prepare(
      `INSERT INTO hop_holds (request_id, fingerprint, chain_id, hop, agent, run_id, row_id, tool, target, input_json, status, created_at)
       VALUES (?, ?, 'c1', 2, 'mid', 'r1', 'row1', 'bash', 't', '{}', ?, 0)`,
    )
    .run(request_id, fingerprint, status);
const counter = () => db.prepare("SELECT hop_count, updated_at FROM chains WHERE id = 'c1'").get() as { hop_count: number; updated_at: number };

describe('nextHopUnlessHeld', () => {
  it('allocates the next hop number of the chain, one a call, and stamps the chain', () => {
    expect(nextHopUnlessHeld(db, { chain_id: 'c1', fingerprint: 'fp', now: 5 })).toBe(2);
    expect(nextHopUnlessHeld(db, { chain_id: 'c1', fingerprint: 'fp', now: 7 })).toBe(3);
    expect(counter()).toEqual({ hop_count: 3, updated_at: 7 });
  });

  it.each(['pending', 'approved', 'refused'])('allocates nothing while a %s hold is bound to the fingerprint', (status) => {
    hold('h1', 'fp', status);
    expect(nextHopUnlessHeld(db, { chain_id: 'c1', fingerprint: 'fp', now: 5 })).toBeNull();
    expect(counter()).toEqual({ hop_count: 1, updated_at: 0 });
    // Another call of the same chain is another hop.
    expect(nextHopUnlessHeld(db, { chain_id: 'c1', fingerprint: 'other', now: 6 })).toBe(2);
  });

  it.each(['consumed', 'canceled'])('a %s hold is no longer live: the call takes a new number', (status) => {
    hold('h1', 'fp', status);
    expect(nextHopUnlessHeld(db, { chain_id: 'c1', fingerprint: 'fp', now: 5 })).toBe(2);
  });

  it('a chain that does not exist allocates nothing', () => {
    expect(nextHopUnlessHeld(db, { chain_id: 'nope', fingerprint: 'fp', now: 5 })).toBeNull();
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
