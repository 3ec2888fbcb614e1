// 002 (AGENTS): the conversation of each run (what the model reads, in order) and each run's turn state.
// Compacted messages are kept for the record (compacted = 1) but no longer sent; the summary replaces them.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 2,
  name: 'agents_conversation',
  up(db) {
    db.exec(`
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        round INTEGER,
        role TEXT NOT NULL CHECK (role IN ('user','assistant','tool')),
        kind TEXT NOT NULL DEFAULT 'message', -- message | prompt | continuation | feedback | summary
        content_json TEXT NOT NULL,            -- the provider-neutral message (electron/providers/types.ts ConvMessage)
        compacted INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX messages_by_run ON messages(run_id, id);

      CREATE TABLE turn_state (
        run_id TEXT PRIMARY KEY,
        agent TEXT NOT NULL,
        turn INTEGER NOT NULL DEFAULT 1,
        round INTEGER NOT NULL DEFAULT 0,
        stop_continuations INTEGER NOT NULL DEFAULT 0,
        compactions INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE questions (
        id TEXT PRIMARY KEY,                   -- the inbox item id (kind question)
        run_id TEXT NOT NULL,
        row_id TEXT,
        question TEXT NOT NULL,
        answer TEXT,
        status TEXT NOT NULL DEFAULT 'pending', -- pending | answered | canceled
        created_at INTEGER NOT NULL,
        answered_at INTEGER
      );
    `);
  },
};
export default migration;
