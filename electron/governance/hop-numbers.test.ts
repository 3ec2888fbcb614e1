// A chain's hop numbers: counted in memory from what the store holds, handed out again when the transaction or
// savepoint that took them rolls back, and gone on from after a restart (the hop on each row).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, tx, type Db } from '../store/db.js';
import { HopNumbers } from './hop-numbers.js';
import { insertChain, insertHopRow, insertMemberRun } from '../../test/support/governance-db.js';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  insertChain(db, 'c1');
  insertMemberRun(db, { run_id: 'r1', chain_id: 'c1', handoff: 'h1' });
});
afterEach(() => db.close());

const fail = () => {
  throw new Error('rolled back');
};
/** The kernel keeps the number on the hop's row, in the same transaction. */
const keep = (id: string, seq: number, hop: number) => insertHopRow(db, { id, run_id: 'r1', seq, hop });

describe('HopNumbers', () => {
  it('goes on from the hand-off (hop 1), one number a hop', () => {
    const hops = new HopNumbers();
    expect(tx(db, () => [hops.next(db, 'c1'), hops.next(db, 'c1'), hops.next(db, 'c1')])).toEqual([2, 3, 4]);
  });

  it('a hop whose savepoint rolls back never happened: its number is handed out again', () => {
    const hops = new HopNumbers();
    tx(db, () => {
      expect(hops.next(db, 'c1')).toBe(2);
      expect(() => tx(db, () => (hops.next(db, 'c1'), fail()))).toThrow('rolled back');
      expect(hops.next(db, 'c1')).toBe(3);
    });
  });

  it('a whole fan that rolls back hands its numbers out again, even the first count read in it', () => {
    const hops = new HopNumbers();
    expect(() => tx(db, () => (hops.next(db, 'c1'), hops.next(db, 'c1'), fail()))).toThrow('rolled back');
    expect(tx(db, () => hops.next(db, 'c1'))).toBe(2);
  });

  it('after a restart, goes on from the highest hop kept on a row', () => {
    const before = new HopNumbers();
    tx(db, () => {
      keep('a', 1, before.next(db, 'c1')!);
      keep('b', 2, before.next(db, 'c1')!);
    });
    const after = new HopNumbers(); // a new process: nothing in memory
    expect(tx(db, () => after.next(db, 'c1'))).toBe(4);
  });

  it('a chain that does not exist takes no number', () => {
    expect(tx(db, () => new HopNumbers().next(db, 'nope'))).toBeNull();
  });
});
