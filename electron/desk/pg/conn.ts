// The desk's Postgres connections, shaped so that losing the server can never crash the kernel.
//
// Why: postgres@3.4.9 throws an uncaught TypeError from a setImmediate when a query is written to a PINNED
// connection (sql.begin, sql.reserve) whose socket already closed: the transaction's ROLLBACK after a dropped
// backend is enough (porsager/postgres#1154, #1208; the fix, PR #1209, is not released). A pooled query never
// writes to a socketless connection (a closed one is reconnected first). So the desk never pins one: each
// exchange is ONE statement (atomic on its own), or, when it must run as a person, one simple-protocol string
// of statements, which Postgres runs as one implicit transaction that rolls back on any error. The type below
// makes begin/reserve uncallable; the client also replaces the whole pool after repeated failures, since the
// same driver can leave a connection that never writes again (stale nextWriteTimer, porsager/postgres#1199).
import postgres from 'postgres';

/** A pool with no way to pin a connection: the tagged template, unsafe, listen and end; no begin, no reserve. */
export type DeskSql = Pick<postgres.Sql, 'unsafe' | 'listen' | 'end' | 'json'> & {
  <T extends readonly (object | undefined)[] = postgres.Row[]>(
    template: TemplateStringsArray,
    ...parameters: readonly postgres.ParameterOrFragment<never>[]
  ): postgres.PendingQuery<T>;
};

export function openDeskSql(url: string, machine: string, password?: string): DeskSql {
  return postgres(url, {
    onnotice: () => {},
    fetch_types: false, // no array types are used; and no extra statement races a reconnect
    max: 4,
    connect_timeout: 5,
    idle_timeout: 30,
    connection: { application_name: `nexus ${machine}` },
    ...(password ? { password } : {}),
  });
}

const NUL = /\0/;

/** A string as a Postgres literal, the way libpq's PQescapeLiteral writes one (E'' form: no setting changes it). */
export function literal(v: string | null): string {
  if (v === null) return 'NULL';
  if (NUL.test(v)) throw new Error('a desk value may not contain a NUL byte');
  return `E'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A role name as a quoted identifier. */
export function ident(v: string): string {
  if (!v || v.length > 63 || NUL.test(v)) throw new Error(`not a Postgres role name: ${JSON.stringify(v)}`);
  return `"${v.replace(/"/g, '""')}"`;
}

/**
 * Statements run as `person` (SET LOCAL ROLE), in one implicit transaction: row-level security judges the
 * person, and the role ends with the string. Returns the last statement's rows.
 */
export async function asPerson(sql: DeskSql, person: string, statement: string): Promise<readonly Record<string, unknown>[]> {
  const results: unknown = await sql.unsafe(`SET LOCAL ROLE ${ident(person)}; ${statement}`);
  const last = Array.isArray(results) ? results[results.length - 1] : [];
  return Array.isArray(last) ? last : [];
}
