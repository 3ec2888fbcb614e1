// Desk schema 001: the shared tables (DESIGN §8). Cards and answers are the shared inbox; `record` is the
// insert-only record AND the outbox's receipt: its primary key (machine, seq) makes a re-sent change a no-op.
import type { PgMigration } from './types.js';

const migration: PgMigration = {
  version: 1,
  name: 'desk',
  sql: `
    CREATE SCHEMA IF NOT EXISTS desk;
    CREATE TABLE desk.machines (
      name text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$'),
      role name NOT NULL DEFAULT current_user,
      -- The data dir that holds this name: its outbox seqs are the record's keys, so no other may take it.
      instance text NOT NULL,
      joined_at timestamptz NOT NULL DEFAULT now(),
      last_heard_at timestamptz NOT NULL DEFAULT now(),
      left_at timestamptz
    );
    -- The policy: desk-wide keys (Stop all, orchestration settings, agent profiles). The desk is the authority.
    CREATE TABLE desk.policy (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_by name NOT NULL DEFAULT current_user,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Which team answers which agent's cards (a team is a Postgres role its people are members of).
    CREATE TABLE desk.agent_teams (agent text NOT NULL, team name NOT NULL, PRIMARY KEY (agent, team));
    -- The inbox: every machine's cards. Only the owning machine changes a card's status.
    CREATE TABLE desk.cards (
      machine text NOT NULL REFERENCES desk.machines(name),
      id text NOT NULL,
      kind text NOT NULL,
      run_id text NOT NULL,
      agent text,
      tool text NOT NULL,
      target text NOT NULL,
      expires_at timestamptz,
      status text NOT NULL DEFAULT 'pending',
      decided_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (machine, id)
    );
    CREATE INDEX cards_pending ON desk.cards (created_at, machine, id) WHERE status = 'pending';
    -- Answers travel to the owner. by_role is who inserted it (never a column the inserter writes).
    CREATE TABLE desk.answers (
      id bigserial PRIMARY KEY,
      machine text NOT NULL,
      card_id text NOT NULL,
      verdict text NOT NULL CHECK (verdict IN ('approve', 'deny')),
      reason text CHECK (length(reason) <= 2000),
      by_role name NOT NULL DEFAULT current_user,
      at_machine text NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (machine, card_id) REFERENCES desk.cards(machine, id)
    );
    CREATE INDEX answers_by_owner ON desk.answers (machine, id);
    CREATE TABLE desk.record (
      machine text NOT NULL,
      seq bigint NOT NULL,
      kind text NOT NULL,
      ref text NOT NULL,
      data jsonb NOT NULL,
      at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (machine, seq)
    );
    CREATE INDEX record_by_ref ON desk.record (ref);
    -- NOTIFY carries ids only; the payload is read back under the reader's own rights (RLS).
    CREATE FUNCTION desk.notify_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('nexus_desk', 'answer:' || NEW.id); RETURN NULL; END $$;
    CREATE TRIGGER answers_notify AFTER INSERT ON desk.answers FOR EACH ROW EXECUTE FUNCTION desk.notify_answer();
    CREATE FUNCTION desk.notify_policy() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('nexus_desk', 'policy:' || NEW.key); RETURN NULL; END $$;
    CREATE TRIGGER policy_notify AFTER INSERT OR UPDATE ON desk.policy FOR EACH ROW EXECUTE FUNCTION desk.notify_policy();
    CREATE FUNCTION desk.notify_card() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('nexus_desk', 'card:' || NEW.machine || '/' || NEW.id); RETURN NULL; END $$;
    CREATE TRIGGER cards_notify AFTER INSERT OR UPDATE ON desk.cards FOR EACH ROW EXECUTE FUNCTION desk.notify_card();
    -- The record is insert-only for everyone, the owner included: grants alone would not bind a superuser.
    CREATE FUNCTION desk.record_is_insert_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the desk record is insert-only' USING ERRCODE = '42501'; END $$;
    CREATE TRIGGER record_insert_only BEFORE UPDATE OR DELETE ON desk.record FOR EACH ROW EXECUTE FUNCTION desk.record_is_insert_only();
    CREATE TRIGGER record_no_truncate BEFORE TRUNCATE ON desk.record FOR EACH STATEMENT EXECUTE FUNCTION desk.record_is_insert_only();
  `,
};
export default migration;
