// Test helpers for governance's own store tests: a fresh database with the governance schema only.
import Database from 'better-sqlite3';
import m003 from '../../electron/store/migrations/003_governance.js';
import m004 from '../../electron/store/migrations/004_entitlement_source.js';
import type { Db } from '../../electron/store/db.js';

export function governanceOnlyDb(): Db {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  m003.up(db);
  m004.up(db);
  return db;
}
