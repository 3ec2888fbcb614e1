// Desk schema 003: reading the whole desk's runs, chains, holds and tasks (`nexus runs list|chains|tasks --desk`).
// The record is insert-only, so an object's state is its changes in seq order: this index serves "every change
// of one kind, per machine and object", newest object first.
import type { PgMigration } from './types.js';

const migration: PgMigration = {
  version: 3,
  name: 'record_views',
  sql: `CREATE INDEX record_by_kind ON desk.record (kind, machine, ref, seq);`,
};
export default migration;
