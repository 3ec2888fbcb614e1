// `nexus desk init URL`: create or upgrade a team desk's schema (docs/desk.md). It talks to Postgres itself
// (no kernel is involved), so like `serve` it is an entry point past the layer table (eslint/layers.js ENTRIES).
import type { CliCommand } from './io.js';
import { parse, usageError } from './common.js';
import { migrateDesk, PG_MIGRATIONS } from '../desk/pg/migrate.js';
import { redactUrl } from '../desk/client.js';
import { errorMessage } from '../../shared/errors.js';

const USAGE = `usage: nexus desk init URL [--json]
  Creates or upgrades the team desk's schema in the PostgreSQL database at URL (postgres://ROLE@HOST:PORT/DB),
  and the roles nexus_machine, nexus_person and nexus_policy. Run it as the database's owner; running it again
  applies only what is new. A password in URL is never printed: prefer PGPASSWORD or ~/.pgpass.
  Machines then join it with nexus serve (its desk options; docs/desk.md).`;

export const deskCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, USAGE);
  if ('exit' in p) return p.exit;
  const [sub, url, ...rest] = p.positionals;
  if (sub !== 'init') return usageError(io, USAGE, sub ? `unknown desk command ${JSON.stringify(sub)}` : 'which desk command?');
  if (!url || rest.length) return usageError(io, USAGE, url ? `unexpected ${rest.join(' ')}` : 'nexus desk init needs the URL of the desk database');
  if (!/^postgres(ql)?:\/\//.test(url)) return usageError(io, USAGE, 'the desk URL starts with postgres:// or postgresql://');
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { onnotice: () => {}, max: 1, connect_timeout: 10, fetch_types: false });
  try {
    const version = await migrateDesk(sql);
    const newest = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
    if (p.values.json) io.out(JSON.stringify({ url: redactUrl(url), version, newest }));
    else io.out(`The desk at ${redactUrl(url)} is at schema version ${version}.`);
    return 0;
  } catch (e) {
    io.err(`nexus: could not initialise the desk at ${redactUrl(url)}: ${errorMessage(e)}`);
    return 1;
  } finally {
    await sql.end({ timeout: 1 });
  }
};
