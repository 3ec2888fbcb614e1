import type { Db } from '../db.js';

/** One numbered schema step. `version` is its slot (001 kernel, 002 agents, 003 governance, 004+ next). */
export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}
