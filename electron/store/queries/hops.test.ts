// The hop counter folded with the hold lookup (nextHopUnlessHeld): a number is allocated exactly when no live
// hold is bound to the fingerprint, as the two statements it replaced did. A fresh :memory: store, every migration.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db.js';
import { nextHopUnlessHeld } from './hops.js';

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
