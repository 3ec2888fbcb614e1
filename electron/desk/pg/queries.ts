// Every statement the desk client sends to Postgres, as (sql, args) functions: the desk's counterpart of
// electron/store/queries/. Answers and the desk inbox run as the PERSON at this machine (SET LOCAL ROLE), so
// row-level security judges the person, not the machine's connection.
import { asPerson, literal, type DeskSql } from './conn.js';

type Sql = DeskSql;

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
 * Deliver a batch of outbox changes in ONE statement (atomic on its own; no pinned connection: conn.ts). The
 * record's (machine, seq) key is the receipt: a change already held is skipped whole, its side effect (the card,
 * its status) included, so a re-sent batch changes nothing. A card and its decision may arrive in one batch: the
 * card is inserted already decided (a sibling CTE cannot see rows another one inserts), and the UPDATE reaches
 * only cards the desk held before; of several decisions for one card the first (lowest seq) wins, as at the desk.
 */
export async function pushChanges(sql: DeskSql, a: { machine: string; json: string }): Promise<number> {
  const batch = a.json; // the outbox batch as SQLite built it (store/queries/desk-outbox.ts outboxBatch)
  const [r] = await sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${batch}::text::jsonb) AS x(seq bigint, kind text, ref text, data jsonb, at double precision)
    ), fresh AS (
      INSERT INTO desk.record (machine, seq, kind, ref, data, at)
      SELECT ${a.machine}, seq, kind, ref, data, to_timestamp(at / 1000) FROM input ORDER BY seq
      ON CONFLICT (machine, seq) DO NOTHING RETURNING seq, kind, data
    ), decided AS (
      SELECT DISTINCT ON (data->>'row_id') data->>'row_id' AS id, data->>'status' AS status, data->>'by' AS by
      FROM fresh WHERE kind = 'decision' ORDER BY data->>'row_id', seq
    ), cards AS (
      INSERT INTO desk.cards (machine, id, kind, run_id, agent, tool, target, expires_at, status, decided_by)
      SELECT ${a.machine}, f.data->>'id', f.data->>'kind', f.data->>'run_id', f.data->>'agent', f.data->>'tool', f.data->>'target',
             to_timestamp((f.data->>'expires_at')::double precision / 1000), coalesce(d.status, 'pending'), d.by
      FROM fresh f LEFT JOIN decided d ON d.id = f.data->>'id' WHERE f.kind = 'card' ORDER BY f.seq
      ON CONFLICT (machine, id) DO NOTHING RETURNING id
    ), closed AS (
      UPDATE desk.cards c SET status = d.status, decided_by = d.by FROM decided d
      WHERE c.machine = ${a.machine} AND c.id = d.id AND c.status = 'pending' RETURNING c.id
    )
    SELECT (SELECT count(*) FROM fresh)::int AS fresh`;
  return Number(r?.fresh ?? 0);
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

/** An answer inserted AS the person (row-level security judges them; by_role is filled in by Postgres). */
export async function insertAnswer(
  sql: DeskSql,
  a: { person: string; machine: string; card_id: string; verdict: 'approve' | 'deny'; reason: string | null; at_machine: string },
): Promise<number> {
  const values = [a.machine, a.card_id, a.verdict, a.reason, a.at_machine].map(literal).join(', ');
  const [r] = await asPerson(sql, a.person, `INSERT INTO desk.answers (machine, card_id, verdict, reason, at_machine) VALUES (${values}) RETURNING id`);
  return Number(r?.id);
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
export async function deskInbox(sql: DeskSql, a: { person: string | null; limit: number }): Promise<DeskCard[]> {
  const limit = Math.max(1, Math.min(10_000, Math.trunc(a.limit)));
  const select = `SELECT machine, id, kind, run_id, agent, tool, target, expires_at FROM desk.cards
                  WHERE status = 'pending' ORDER BY created_at, machine, id LIMIT ${limit}`;
  const rows = a.person ? await asPerson(sql, a.person, select) : await sql.unsafe(select);
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
}

/** Which machine owns a card id (ids are unique per machine; the oldest pending one when several match). */
export async function cardOwner(sql: DeskSql, a: { id: string }): Promise<string | null> {
  const [r] = await sql`SELECT machine FROM desk.cards WHERE id = ${a.id} ORDER BY (status = 'pending') DESC, created_at LIMIT 1`;
  return r ? String(r.machine) : null;
}

export async function recordOf(sql: Sql, a: { machine: string }): Promise<Array<{ seq: number; kind: string; ref: string; data: unknown }>> {
  const rows = await sql`SELECT seq, kind, ref, data FROM desk.record WHERE machine = ${a.machine} ORDER BY seq`;
  return rows.map((r) => ({ seq: Number(r.seq), kind: String(r.kind), ref: String(r.ref), data: r.data }));
}

/** A card's status at the desk as its owner last reported it (null: no such card). */
export async function cardStatus(sql: Sql, a: { machine: string; id: string }): Promise<{ status: string; decided_by: string | null } | null> {
  const [r] = await sql`SELECT status, decided_by FROM desk.cards WHERE machine = ${a.machine} AND id = ${a.id}`;
  return r ? { status: String(r.status), decided_by: r.decided_by == null ? null : String(r.decided_by) } : null;
}

/** What `--desk` lists: one kind of object, its state the merge of its record entries in seq order. */
export const RECORD_VIEWS = {
  runs: { kinds: ['run_start', 'run'], evidence: null },
  chains: { kinds: ['chain'], evidence: null },
  holds: { kinds: ['hold'], evidence: null },
  tasks: { kinds: ['task'], evidence: 'task_evidence' },
} as const;
export type RecordView = keyof typeof RECORD_VIEWS;

export interface DeskObject {
  machine: string;
  id: string;
  /** When the desk first recorded it, and last. */
  first_at: string;
  last_at: string;
  state: Record<string, unknown>;
  /** Tasks: the evidence of each check, in order. */
  evidence?: Record<string, unknown>[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The newest `limit` objects of a view across every machine of the desk. */
export async function deskObjects(sql: Sql, a: { view: RecordView; limit: number }): Promise<DeskObject[]> {
  const v = RECORD_VIEWS[a.view];
  const kinds = v.evidence ? [...v.kinds, v.evidence] : [...v.kinds];
  const rows = await sql`
    SELECT machine, ref, min(at) AS first_at, max(at) AS last_at,
           jsonb_agg(jsonb_build_object('kind', kind, 'data', data) ORDER BY seq) AS changes
    FROM desk.record WHERE kind IN ${sql.unsafe(`(${kinds.map((k) => `'${k}'`).join(', ')})`)}
    GROUP BY machine, ref
    HAVING bool_or(kind <> ${v.evidence ?? ''})
    ORDER BY min(at) DESC, machine, ref LIMIT ${a.limit}`;
  return rows.map((r) => {
    const changes: unknown[] = Array.isArray(r.changes) ? r.changes : [];
    const state: Record<string, unknown> = {};
    const evidence: Record<string, unknown>[] = [];
    for (const c of changes) {
      if (!isObject(c) || !isObject(c.data)) continue;
      if (c.kind === v.evidence) evidence.push(c.data);
      else Object.assign(state, c.data);
    }
    const at = (x: unknown) => (x instanceof Date ? x.toISOString() : String(x));
    return { machine: String(r.machine), id: String(r.ref), first_at: at(r.first_at), last_at: at(r.last_at), state, ...(v.evidence ? { evidence } : {}) };
  });
}

export interface PolicyEntry {
  key: string;
  value: unknown;
  updated_by: string;
  updated_at: string;
}

/** Every policy key but Stop all (the heartbeat reads that one): the catch-up a joining or woken kernel applies. */
export async function policyEntries(sql: Sql): Promise<PolicyEntry[]> {
  const rows = await sql`SELECT key, value, updated_by, updated_at FROM desk.policy WHERE key <> 'stop_all' ORDER BY key`;
  return rows.map((r) => ({
    key: String(r.key),
    value: r.value,
    updated_by: String(r.updated_by),
    updated_at: r.updated_at instanceof Date ? r.updated_at.toISOString() : String(r.updated_at),
  }));
}

/** Publish policy keys AS the person, in one implicit transaction: row-level security lets only nexus_policy write. */
export async function putPolicy(sql: DeskSql, a: { person: string; entries: Array<{ key: string; value: unknown }> }): Promise<void> {
  if (!a.entries.length) return;
  const values = a.entries.map((e) => `(${literal(e.key)}, ${literal(JSON.stringify(e.value))}::jsonb)`).join(', ');
  await asPerson(
    sql,
    a.person,
    `INSERT INTO desk.policy (key, value) VALUES ${values}
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = current_user, updated_at = now()`,
  );
}
