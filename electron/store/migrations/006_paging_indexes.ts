// 006 (store): indexes the paged lists and the per-run counts read, so each costs what it returns, not
// what the store holds.
// - runs_by_agent_created: the runs list of one agent pages newest first on (created_at, rowid) (the
//   unfiltered list already has runs_by_created, which orders by both: rowid ends every index).
// - rows_parked_by_run: a run's parked-row count (runs list, run detail) reads its parked rows only. A
//   partial index is used only when the query repeats its condition literally (`state = 'needs_approval'`).
// - rows_parked_deadline: start-up re-arms every parked row's deadline from the index alone (id and
//   expires_at), without reading the rows themselves.
// - tasks_by_created: the delegated tasks list pages newest first.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 6,
  name: 'paging_indexes',
  up(db) {
    db.exec(`
      CREATE INDEX runs_by_agent_created ON runs(agent, created_at);
      CREATE INDEX rows_parked_by_run ON rows(run_id) WHERE state = 'needs_approval';
      CREATE INDEX rows_parked_deadline ON rows(expires_at, id) WHERE state = 'needs_approval';
      CREATE INDEX tasks_by_created ON tasks(created_at);
    `);
  },
};
export default migration;
