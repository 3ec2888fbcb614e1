// 010 (governance): a governed hop's number is kept on its row (rows.hop), written in the transaction that
// records the row's decision, instead of a per-chain counter rewritten at every hop (a second table page in
// every governed commit). The number a chain goes on from is the highest of chains.hop_count (hop 1, and every
// hop counted before this migration) and its member runs' rows. hop_holds_live: the holds that still bind a
// hop (pending, approved, refused) by chain, so the gate knows in one indexed read that a chain holds none.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 10,
  name: 'hop_numbers',
  up(db) {
    db.exec(`
      ALTER TABLE rows ADD COLUMN hop INTEGER;
      CREATE INDEX hop_holds_live ON hop_holds(chain_id) WHERE status IN ('pending','approved','refused');
    `);
  },
};
export default migration;
