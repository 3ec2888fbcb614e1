// The people, teams and machines every desk test uses, created the way docs/desk.md tells an administrator to:
// machines laptop_a / laptop_b / laptop_c (each may act as its person), team_ops with alice and bob, carol in no
// team, and pat, who may change the policy (nexus_policy).
import postgres from 'postgres';

export async function createDeskRoles(adminUrl: string): Promise<void> {
  const sql = postgres(adminUrl, { onnotice: () => {} });
  try {
    await sql.unsafe(`
      CREATE ROLE team_ops NOLOGIN;
      CREATE ROLE alice LOGIN IN ROLE nexus_person, team_ops;
      CREATE ROLE bob LOGIN IN ROLE nexus_person, team_ops;
      CREATE ROLE carol LOGIN IN ROLE nexus_person;
      CREATE ROLE pat LOGIN IN ROLE nexus_person, nexus_policy;
      CREATE ROLE laptop_a LOGIN IN ROLE nexus_machine;
      CREATE ROLE laptop_b LOGIN IN ROLE nexus_machine;
      CREATE ROLE laptop_c LOGIN IN ROLE nexus_machine;
      GRANT alice TO laptop_a;
      GRANT bob TO laptop_b;
      GRANT carol TO laptop_c;
      INSERT INTO desk.agent_teams (agent, team) VALUES ('ops-bot', 'team_ops');
    `);
  } finally {
    await sql.end();
  }
}
