// onRollback: memory kept beside the store rolls back with the transaction or savepoint it was changed in, and
// only with it. tx() is the only way a transaction begins, so its levels are SQLite's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onRollback, openDatabase, tx, type Db } from './db.js';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

/** A counter kept in memory, changed the way the gate changes its hop numbers. */
function counter() {
  const c = { n: 0 };
  const bump = () => {
    const before = c.n;
    c.n++;
    onRollback(db, () => (c.n = before));
  };
  return { c, bump };
}
const fail = () => {
  throw new Error('rolled back');
};

describe('onRollback', () => {
  it('a committed change stays; a rolled-back one is undone', () => {
    const { c, bump } = counter();
    tx(db, bump);
    expect(c.n).toBe(1);
    expect(() => tx(db, () => (bump(), bump(), fail()))).toThrow('rolled back');
    expect(c.n).toBe(1);
  });

  it('a savepoint that rolls back undoes only its own changes, and the transaction goes on', () => {
    const { c, bump } = counter();
    tx(db, () => {
      bump();
      expect(() => tx(db, () => (bump(), fail()))).toThrow('rolled back');
      expect(c.n).toBe(1);
      bump();
    });
    expect(c.n).toBe(2);
  });

  it('a released savepoint is undone when the transaction around it rolls back, newest change first', () => {
    const { c, bump } = counter();
    const seen: number[] = [];
    expect(() =>
      tx(db, () => {
        bump();
        tx(db, () => {
          bump();
          onRollback(db, () => seen.push(c.n));
        });
        fail();
      }),
    ).toThrow('rolled back');
    expect(seen).toEqual([2]);
    expect(c.n).toBe(0);
  });

  it('outside a transaction the change is already kept: nothing is recorded to undo', () => {
    const { c, bump } = counter();
    bump();
    expect(() => tx(db, fail)).toThrow('rolled back');
    expect(c.n).toBe(1);
  });

  it('refuses inside a transaction tx() did not begin (its rollback could not be followed)', () => {
    db.exec('BEGIN');
    expect(() => onRollback(db, () => {})).toThrow(/not begun by tx\(\)/);
    db.exec('ROLLBACK');
  });
});
