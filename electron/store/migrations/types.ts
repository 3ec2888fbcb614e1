// Migrations sit below db.ts (which runs them), so they name the connection type directly, not through db.ts.
import type Database from 'better-sqlite3';

/** One numbered schema step. `version` is its slot (001 kernel, 002 agents, 003 governance, 004+ next). */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}
