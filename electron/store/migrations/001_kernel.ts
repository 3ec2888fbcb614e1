// 001 (KERNEL): agents, runs, rows, the inbox and run events. Times are epoch milliseconds (INTEGER);
// JSON columns hold exactly what was frozen (rules, hooks, input, effect profile, result).
import type { Migration } from './types.js';

const migration: Migration = {
  version: 1,
  name: 'kernel',
  up(db) {
    db.exec(`
      CREATE TABLE agents (
        name TEXT PRIMARY KEY,
        profile_json TEXT NOT NULL,          -- the profile as saved (validated), approval_rules included
        mode TEXT NOT NULL CHECK (mode IN ('bypass','ask','rules')),
        rules_json TEXT NOT NULL DEFAULT '[]',
        hooks_json TEXT NOT NULL DEFAULT '{}',
        workspace TEXT,
        key_ref TEXT,                        -- where its key is (an env var name); never the key itself
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','removed')),
        credentials_fenced INTEGER NOT NULL DEFAULT 0,
        executor_revoked INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        agent TEXT,                          -- null: a person's standalone run
        status TEXT NOT NULL CHECK (status IN ('running','succeeded','failed','canceled')),
        mode TEXT NOT NULL CHECK (mode IN ('bypass','ask','rules')),
        rules_json TEXT NOT NULL,            -- frozen at creation; recompiled from here after a restart
        hooks_json TEXT NOT NULL DEFAULT '{}',
        workspace TEXT NOT NULL,
        prompt TEXT,
        final_answer TEXT,
        error TEXT,
        parent_run_id TEXT,
        parent_row_id TEXT,
        chain_id TEXT,
        created_by TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        ended_at INTEGER
      );
      CREATE INDEX runs_by_status ON runs(status);
      CREATE INDEX runs_by_agent ON runs(agent, status);
      CREATE INDEX runs_by_created ON runs(created_at);

      CREATE TABLE rows (
        id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('model','author','kernel')),
        wire_tool TEXT NOT NULL,
        tool TEXT NOT NULL,                  -- resolved execution name (what rules matched)
        runner TEXT,
        input_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('ready','needs_approval','running','succeeded','failed','timed_out','canceled')),
        round INTEGER,
        on_failure TEXT NOT NULL DEFAULT 'continue' CHECK (on_failure IN ('continue','fail_run')),
        granted_by TEXT,
        approved_by TEXT,
        matched_json TEXT,
        addressee TEXT,
        effect_json TEXT,
        expires_at INTEGER,
        error_code TEXT,
        error_detail TEXT,
        result_json TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        started_at INTEGER,
        ended_at INTEGER
      );
      CREATE INDEX rows_by_run ON rows(run_id, seq);
      CREATE INDEX rows_live ON rows(state) WHERE state IN ('ready','needs_approval','running');

      CREATE TABLE inbox (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,                  -- autonomy | orchestration | attention | question
        status TEXT NOT NULL DEFAULT 'pending', -- pending | approved | denied | expired | canceled | answered | ...
        run_id TEXT NOT NULL,
        row_id TEXT,
        agent TEXT,
        tool TEXT NOT NULL,
        target TEXT NOT NULL,
        addressee TEXT,
        hop INTEGER,
        chain_id TEXT,
        expires_at INTEGER,
        data_json TEXT,                      -- kind-specific extras (effect profile, message, ...)
        created_at INTEGER NOT NULL,
        resolved_at INTEGER,
        resolved_by TEXT
      );
      CREATE INDEX inbox_pending ON inbox(status, created_at);
      CREATE INDEX inbox_by_row ON inbox(row_id);

      CREATE TABLE run_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        type TEXT NOT NULL,
        data_json TEXT,
        at INTEGER NOT NULL
      );
      CREATE INDEX run_events_by_run ON run_events(run_id, seq);
    `);
  },
};
export default migration;
