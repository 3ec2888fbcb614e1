// Every statement the desk client sends to Postgres, as (sql, args) functions: the desk's counterpart of
// electron/store/queries/. Answers and the desk inbox run as the PERSON at this machine (SET LOCAL ROLE), so
// row-level security judges the person, not the machine's connection.
import type postgres from 'postgres';
import type { OutboxEntry } from '../../store/queries/desk-outbox.js';

type Sql = postgres.Sql | postgres.TransactionSql;

/** The outbox's data came from JSON.parse, so it is JSON; re-reading it says so to the driver's types. */
const jsonValue = (d: Record<string, unknown>): postgres.JSONValue => JSON.parse(JSON.stringify(d));

/** Join (or re-join) as `machine`; false when another data dir holds that name (its seqs key the record). */
export async function joinMachine(sql: Sql, a: { machine: string; instance: string }): Promise<boolean> {
  const r = await sql`INSERT INTO desk.machines (name, instance) VALUES (${a.machine}, ${a.instance})
            ON CONFLICT (name) DO UPDATE SET last_heard_at = now(), left_at = NULL
            WHERE desk.machines.instance = excluded.instance AND desk.machines.role = current_user RETURNING name`;
  return r.length === 1;
}

export async function leaveMachine(sql: Sql, a: { machine: string }): Promise<void> {
  await sql`UPDATE desk.machines SET left_at = now() WHERE name = ${a.machine}`;
}

/** The heartbeat: this machine was heard, and the desk's Stop all as it stands. */
export async function heartbeat(sql: Sql, a: { machine: string }): Promise<{ stopAll: boolean }> {
  const [r] = await sql`WITH beat AS (UPDATE desk.machines SET last_heard_at = now() WHERE name = ${a.machine})
                        SELECT coalesce((SELECT value = 'true'::jsonb FROM desk.policy WHERE key = 'stop_all'), false) AS stop`;
  return { stopAll: r?.stop === true };
}

export async function setStopAll(sql: Sql, a: { on: boolean }): Promise<void> {
  await sql`INSERT INTO desk.policy (key, value) VALUES ('stop_all', ${sql.json(a.on)})
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = current_user, updated_at = now()`;
}

/**
 * Deliver outbox changes in one transaction. The record's (machine, seq) key is the receipt: a change already
 * held is skipped whole, its side effect (the card, its status) included, so a re-sent batch changes nothing.
 */
export async function pushChanges(sql: postgres.Sql, a: { machine: string; changes: readonly OutboxEntry[] }): Promise<void> {
  await sql.begin(async (t) => {
    for (const c of a.changes) {
      const fresh = await t`INSERT INTO desk.record (machine, seq, kind, ref, data, at)
                            VALUES (${a.machine}, ${c.seq}, ${c.kind}, ${c.ref}, ${t.json(jsonValue(c.data))}, ${new Date(c.at)})
                            ON CONFLICT (machine, seq) DO NOTHING RETURNING seq`;
      if (!fresh.length) continue;
      const d = c.data;
      if (c.kind === 'card') {
        await t`INSERT INTO desk.cards (machine, id, kind, run_id, agent, tool, target, expires_at)
                VALUES (${a.machine}, ${String(d.id)}, ${String(d.kind)}, ${String(d.run_id)}, ${typeof d.agent === 'string' ? d.agent : null},
                        ${String(d.tool)}, ${String(d.target)}, ${typeof d.expires_at === 'number' ? new Date(d.expires_at) : null})
                ON CONFLICT (machine, id) DO NOTHING`;
      } else if (c.kind === 'decision') {
        await t`UPDATE desk.cards SET status = ${String(d.status)}, decided_by = ${typeof d.by === 'string' ? d.by : null}
                WHERE machine = ${a.machine} AND id = ${String(d.row_id)} AND status = 'pending'`;
      }
    }
  });
}

export interface DeskAnswer {
  id: number;
  card_id: string;
  verdict: 'approve' | 'deny';
  reason: string | null;
  by_role: string;
  at_machine: string;
}

/** Answers to this machine's cards after `after` (catch-up by sequence: NOTIFY has no replay). */
export async function answersSince(sql: Sql, a: { machine: string; after: number }): Promise<DeskAnswer[]> {
  const rows = await sql`SELECT id, card_id, verdict, reason, by_role, at_machine FROM desk.answers
                         WHERE machine = ${a.machine} AND id > ${a.after} ORDER BY id LIMIT 500`;
  return rows.map((r) => ({
    id: Number(r.id),
    card_id: String(r.card_id),
    verdict: r.verdict === 'deny' ? 'deny' : 'approve',
    reason: r.reason == null ? null : String(r.reason),
    by_role: String(r.by_role),
    at_machine: String(r.at_machine),
  }));
}

const asPerson = async (t: postgres.TransactionSql, person: string) => {
  await t`SELECT set_config('role', ${person}, true)`; // SET LOCAL ROLE, parameterized
};

export async function insertAnswer(
  sql: postgres.Sql,
  a: { person: string; machine: string; card_id: string; verdict: 'approve' | 'deny'; reason: string | null; at_machine: string },
): Promise<number> {
  return sql.begin(async (t) => {
    await asPerson(t, a.person);
    const [r] = await t`INSERT INTO desk.answers (machine, card_id, verdict, reason, at_machine)
                        VALUES (${a.machine}, ${a.card_id}, ${a.verdict}, ${a.reason}, ${a.at_machine}) RETURNING id`;
    return Number(r?.id);
  });
}

export interface DeskCard {
  machine: string;
  id: string;
  kind: string;
  run_id: string;
  agent: string | null;
  tool: string;
  target: string;
  expires_at: string | null;
}

/** The desk inbox's pending cards the person may read, oldest first. */
export async function deskInbox(sql: postgres.Sql, a: { person: string | null; limit: number }): Promise<DeskCard[]> {
  return sql.begin(async (t) => {
    if (a.person) await asPerson(t, a.person);
    const rows = await t`SELECT machine, id, kind, run_id, agent, tool, target, expires_at FROM desk.cards
                         WHERE status = 'pending' ORDER BY created_at, machine, id LIMIT ${a.limit}`;
    return rows.map((r) => ({
      machine: String(r.machine),
      id: String(r.id),
      kind: String(r.kind),
      run_id: String(r.run_id),
      agent: r.agent == null ? null : String(r.agent),
      tool: String(r.tool),
      target: String(r.target),
      expires_at: r.expires_at instanceof Date ? r.expires_at.toISOString() : null,
    }));
  });
}

/** Which machine owns a card id (ids are unique per machine; the oldest pending one when several match). */
export async function cardOwner(sql: postgres.Sql, a: { id: string }): Promise<string | null> {
  const [r] = await sql`SELECT machine FROM desk.cards WHERE id = ${a.id} ORDER BY (status = 'pending') DESC, created_at LIMIT 1`;
  return r ? String(r.machine) : null;
}

export async function recordOf(sql: Sql, a: { machine: string }): Promise<Array<{ seq: number; kind: string; ref: string; data: unknown }>> {
  const rows = await sql`SELECT seq, kind, ref, data FROM desk.record WHERE machine = ${a.machine} ORDER BY seq`;
  return rows.map((r) => ({ seq: Number(r.seq), kind: String(r.kind), ref: String(r.ref), data: r.data }));
}
