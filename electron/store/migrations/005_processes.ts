// 005 (kernel, containment): the process group each running row started, recorded BEFORE its command runs,
// so a kernel that restarts after a crash can kill what survived it. A pid is identified together with its
// start time (Linux: /proc/<pid>/stat field 22, clock ticks since boot) so a pid the OS reused for another
// process is never killed. A record is deleted when its process group has been reaped.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 5,
  name: 'processes',
  up(db) {
    db.exec(`
      CREATE TABLE processes (
        pgid INTEGER NOT NULL,
        start_time TEXT NOT NULL,
        row_id TEXT,
        what TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (pgid, start_time)
      );
      CREATE INDEX processes_row ON processes (row_id);
    `);
  },
};
export default migration;
