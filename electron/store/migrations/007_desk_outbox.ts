// 007 (desk): the transactional outbox (DESIGN §8). A change the desk must learn of (a card parked, a decision,
// a row's end, an answer's outcome) is written here in the SAME transaction as the change itself, only while
// this kernel is joined to a desk; the desk client drains it in seq order and deletes what the desk confirmed.
// AUTOINCREMENT: a seq is never reused after a delete, so (machine, seq) names one change forever.
// desk_state keeps what the client must remember across restarts (the last answer it read).
import type { Migration } from './types.js';

const migration: Migration = {
  version: 7,
  name: 'desk_outbox',
  up(db) {
    db.exec(`
      CREATE TABLE desk_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        data_json TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE TABLE desk_state (key TEXT PRIMARY KEY, value_json TEXT NOT NULL);
    `);
  },
};
export default migration;
