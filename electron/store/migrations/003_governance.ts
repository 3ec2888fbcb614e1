// 003 (GOVERNANCE): settings, the entitlement, chains and their runs, per-hop holds, delegated tasks and
// their evidence. Chain state lives here so a restart cannot reset a limit mid-chain (DESIGN §3).
// Times are epoch milliseconds (INTEGER), like 001.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 3,
  name: 'governance',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- One row at most: the imported entitlement token, stored only once its signature verified.
      CREATE TABLE entitlement (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        token TEXT NOT NULL,
        subject TEXT,
        ent_json TEXT NOT NULL,              -- the token's ent claim (array of strings)
        exp INTEGER NOT NULL,                -- the token's exp claim, epoch SECONDS
        key_fingerprint TEXT NOT NULL,       -- which public key verified it (re-verified at start if it changed)
        imported_at INTEGER NOT NULL
      );

      CREATE TABLE chains (
        id TEXT PRIMARY KEY,
        starter TEXT NOT NULL,               -- the agent acting on its own that handed work first (depth 1)
        starter_run_id TEXT NOT NULL,
        touched_json TEXT NOT NULL,          -- distinct agents touched, recipients included, in order
        hop_count INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- Runs the chain started (and the starter's run): where each sits in the chain.
      -- Written BEFORE the recipient's run starts (keyed by the hand-off row), so the run's first call can
      -- never reach the gate ungoverned; run_id is filled in once the run exists.
      CREATE TABLE chain_runs (
        handoff_row_id TEXT PRIMARY KEY,     -- the delegate_task / message_agent row that handed work down
        run_id TEXT UNIQUE,
        chain_id TEXT NOT NULL REFERENCES chains(id),
        agent TEXT NOT NULL,
        depth INTEGER NOT NULL,
        path_json TEXT NOT NULL,             -- orchestrators: agents that handed work down to this run, starter first
        created_at INTEGER NOT NULL
      );
      CREATE INDEX chain_runs_by_chain ON chain_runs(chain_id);

      CREATE TABLE hop_holds (
        request_id TEXT PRIMARY KEY,         -- random 128 bits, hex; also the inbox card's id
        fingerprint TEXT NOT NULL,           -- sha256 of canonical [chain, agent, resolved tool, input]
        chain_id TEXT NOT NULL,
        hop INTEGER NOT NULL,
        agent TEXT NOT NULL,
        run_id TEXT NOT NULL,
        row_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        target TEXT NOT NULL,
        input_json TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending','approved','refused','consumed','canceled')),
        reason TEXT,
        answered_by TEXT,
        created_at INTEGER NOT NULL,
        answered_at INTEGER,
        consumed_at INTEGER
      );
      CREATE INDEX hop_holds_by_fp ON hop_holds(fingerprint, status);

      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('open','completed','failed','canceled')),
        delegator TEXT NOT NULL,
        delegator_run_id TEXT NOT NULL,
        delegator_row_id TEXT NOT NULL,
        recipient TEXT NOT NULL,
        task TEXT NOT NULL,
        check_command TEXT NOT NULL,
        check_timeout_s REAL,
        run_id TEXT,                         -- the recipient's run working the task
        chain_id TEXT,
        refusals INTEGER NOT NULL DEFAULT 0,
        answer TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX tasks_by_run ON tasks(run_id);

      CREATE TABLE task_evidence (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id TEXT NOT NULL REFERENCES tasks(id),
        row_id TEXT,                         -- the kernel row that ran the check
        command TEXT NOT NULL,
        exit_code INTEGER,
        passed INTEGER NOT NULL,
        output TEXT NOT NULL,                -- stdout/stderr tail
        duration_ms REAL NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX task_evidence_by_task ON task_evidence(task_id, seq);
    `);
  },
};
export default migration;
