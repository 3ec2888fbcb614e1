// Desk schema 002: who may do what (DESIGN §8). People are roles in nexus_person, teams are roles people are
// members of, a kernel connects as a role in nexus_machine, policy changes need nexus_policy. Row-level security
// decides which cards a person reads and answers; no desk role gets UPDATE or DELETE on the record.
import type { PgMigration } from './types.js';

const role = (name: string) => `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${name}') THEN CREATE ROLE ${name} NOLOGIN; END IF; END $$;`;

const migration: PgMigration = {
  version: 2,
  name: 'roles',
  sql: `
    ${role('nexus_machine')}
    ${role('nexus_person')}
    ${role('nexus_policy')}
    REVOKE ALL ON SCHEMA desk FROM PUBLIC;
    GRANT USAGE ON SCHEMA desk TO nexus_machine, nexus_person, nexus_policy;
    GRANT SELECT ON desk_migrations TO nexus_machine, nexus_person, nexus_policy;
    -- A person may answer an agent's cards when they are a member of one of that agent's teams.
    CREATE FUNCTION desk.may_answer(agent text) RETURNS boolean LANGUAGE sql STABLE AS $$
      SELECT EXISTS (SELECT 1 FROM desk.agent_teams t WHERE t.agent = $1 AND pg_has_role(current_user, t.team, 'MEMBER'))
    $$;

    GRANT SELECT, INSERT ON desk.machines TO nexus_machine;
    GRANT UPDATE (last_heard_at, left_at) ON desk.machines TO nexus_machine;
    GRANT SELECT ON desk.machines TO nexus_person;
    ALTER TABLE desk.machines ENABLE ROW LEVEL SECURITY;
    CREATE POLICY machines_read ON desk.machines FOR SELECT USING (true);
    CREATE POLICY machines_own ON desk.machines FOR INSERT TO nexus_machine WITH CHECK (role = current_user);
    CREATE POLICY machines_own_update ON desk.machines FOR UPDATE TO nexus_machine USING (role = current_user);

    GRANT SELECT ON desk.policy, desk.agent_teams TO nexus_machine, nexus_person, nexus_policy;
    GRANT INSERT, UPDATE, DELETE ON desk.policy, desk.agent_teams TO nexus_policy;
    -- Stop all is a brake anyone on the desk may pull (and lift): the one policy key machines and people write.
    GRANT INSERT, UPDATE (value, updated_by, updated_at) ON desk.policy TO nexus_machine, nexus_person;
    ALTER TABLE desk.policy ENABLE ROW LEVEL SECURITY;
    CREATE POLICY policy_read ON desk.policy FOR SELECT USING (true);
    CREATE POLICY policy_admin ON desk.policy TO nexus_policy USING (true) WITH CHECK (true);
    CREATE POLICY policy_stop_insert ON desk.policy FOR INSERT TO nexus_machine, nexus_person WITH CHECK (key = 'stop_all');
    CREATE POLICY policy_stop_update ON desk.policy FOR UPDATE TO nexus_machine, nexus_person USING (key = 'stop_all') WITH CHECK (key = 'stop_all');

    GRANT SELECT, INSERT ON desk.cards TO nexus_machine;
    GRANT UPDATE (status, decided_by) ON desk.cards TO nexus_machine;
    GRANT SELECT ON desk.cards TO nexus_person;
    ALTER TABLE desk.cards ENABLE ROW LEVEL SECURITY;
    -- A machine writes only its own cards (the machine row names the role that joined it).
    CREATE POLICY cards_machine_read ON desk.cards FOR SELECT TO nexus_machine USING (true);
    CREATE POLICY cards_machine_own ON desk.cards FOR INSERT TO nexus_machine
      WITH CHECK (EXISTS (SELECT 1 FROM desk.machines m WHERE m.name = machine AND m.role = current_user));
    CREATE POLICY cards_machine_update ON desk.cards FOR UPDATE TO nexus_machine
      USING (EXISTS (SELECT 1 FROM desk.machines m WHERE m.name = machine AND m.role = current_user));
    CREATE POLICY cards_person_read ON desk.cards FOR SELECT TO nexus_person USING (desk.may_answer(agent));

    GRANT SELECT ON desk.answers TO nexus_machine, nexus_person;
    GRANT INSERT (machine, card_id, verdict, reason, at_machine) ON desk.answers TO nexus_person;
    GRANT USAGE ON SEQUENCE desk.answers_id_seq TO nexus_person;
    ALTER TABLE desk.answers ENABLE ROW LEVEL SECURITY;
    CREATE POLICY answers_machine_read ON desk.answers FOR SELECT TO nexus_machine USING (true);
    CREATE POLICY answers_person_read ON desk.answers FOR SELECT TO nexus_person
      USING (EXISTS (SELECT 1 FROM desk.cards c WHERE c.machine = answers.machine AND c.id = answers.card_id));
    CREATE POLICY answers_person_insert ON desk.answers FOR INSERT TO nexus_person
      WITH CHECK (by_role = current_user AND EXISTS (
        SELECT 1 FROM desk.cards c WHERE c.machine = answers.machine AND c.id = answers.card_id AND desk.may_answer(c.agent)));

    -- The record: machines append, people read; nobody updates or deletes (and the trigger of 001 binds owners).
    REVOKE ALL ON desk.record FROM PUBLIC;
    GRANT SELECT, INSERT ON desk.record TO nexus_machine;
    GRANT SELECT ON desk.record TO nexus_person, nexus_policy;
    ALTER TABLE desk.record ENABLE ROW LEVEL SECURITY;
    CREATE POLICY record_read ON desk.record FOR SELECT USING (true);
    CREATE POLICY record_machine_own ON desk.record FOR INSERT TO nexus_machine
      WITH CHECK (EXISTS (SELECT 1 FROM desk.machines m WHERE m.name = machine AND m.role = current_user));
  `,
};
export default migration;
