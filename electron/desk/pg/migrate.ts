// `nexus desk init URL`: create or upgrade the desk schema. Each migration runs in one transaction with its
// version recorded in desk_migrations (public schema, so a fresh database can be asked what it has); an
// advisory lock keeps two machines running init at once from applying a step twice.
import type postgres from 'postgres';
import m001 from './001_desk.js';
import m002 from './002_roles.js';
import m003 from './003_record_views.js';
import m004 from './004_answers_in_order.js';
import type { PgMigration } from './types.js';
import type { DeskSql } from './conn.js';

export const PG_MIGRATIONS: readonly PgMigration[] = [m001, m002, m003, m004];
const LOCK = 0x6e657875; // "nexu"

export async function deskVersion(sql: DeskSql): Promise<number> {
  const [t] = await sql`SELECT to_regclass('public.desk_migrations') AS t`;
  if (!t?.t) return 0;
  const [r] = await sql`SELECT coalesce(max(version), 0)::int AS v FROM desk_migrations`;
  return Number(r?.v ?? 0);
}

/** Apply every desk migration newer than the database's; returns the version reached. */
export async function migrateDesk(sql: postgres.Sql, migrations: readonly PgMigration[] = PG_MIGRATIONS): Promise<number> {
  const newest = migrations.reduce((n, m) => Math.max(n, m.version), 0);
  await sql.begin(async (t) => {
    await t`SELECT pg_advisory_xact_lock(${LOCK})`;
    await t`CREATE TABLE IF NOT EXISTS desk_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
  });
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    await sql.begin(async (t) => {
      await t`SELECT pg_advisory_xact_lock(${LOCK})`;
      const [done] = await t`SELECT 1 FROM desk_migrations WHERE version = ${m.version}`;
      if (done) return;
      await t.unsafe(m.sql);
      await t`INSERT INTO desk_migrations (version, name) VALUES (${m.version}, ${m.name})`;
    });
  }
  const v = await deskVersion(sql);
  if (v > newest) throw new Error(`this desk is at schema version ${v}, newer than this build knows (${newest})`);
  return v;
}
