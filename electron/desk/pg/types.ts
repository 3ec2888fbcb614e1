/** One numbered step of the desk's Postgres schema; applied in one transaction, recorded in desk_migrations. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}
