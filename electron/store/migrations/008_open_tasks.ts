// 008 (store): tasks_open, a partial index of the open tasks only. Recovery after a restart lists every open
// task (listOpenTasks); without it that read scans every task ever delegated. The query repeats the index's
// condition literally (`status = 'open'`), which SQLite needs to use a partial index.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 8,
  name: 'open_tasks',
  up(db) {
    db.exec(`CREATE INDEX tasks_open ON tasks(created_at) WHERE status = 'open';`);
  },
};
export default migration;
