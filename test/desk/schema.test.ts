// The desk's Postgres schema against a real cluster: each migration applies, re-running init is a no-op, and
// the database itself refuses what the security model forbids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { startCluster, pgAvailable, type PgCluster } from '../support/pg-cluster.js';
import { createDeskRoles } from '../support/desk-roles.js';
import { migrateDesk, deskVersion, PG_MIGRATIONS } from '../../electron/desk/pg/migrate.js';

let pg: PgCluster;
const conns: postgres.Sql[] = [];
const as = (role: string) => {
  const s = postgres(pg.url(role), { onnotice: () => {}, max: 1 });
  conns.push(s);
  return s;
};

describe.skipIf(!pgAvailable)('desk schema', () => {
  beforeAll(async () => {
    pg = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(conns.map((c) => c.end()));
    await pg?.destroy();
  });

  it('applies each migration in order, recording its version, and a second init changes nothing', async () => {
    const admin = as('desk_admin');
    expect(await deskVersion(admin)).toBe(0);
    expect(await migrateDesk(admin, PG_MIGRATIONS.slice(0, 1))).toBe(1);
    const [t] = await admin`SELECT to_regclass('desk.cards') AS t, to_regclass('desk.record') AS r`;
    expect(t.t).toBe('desk.cards');
    expect(t.r).toBe('desk.record');
    expect(await migrateDesk(admin, PG_MIGRATIONS.slice(0, 2))).toBe(2);
    const [r] = await admin`SELECT count(*)::int AS n FROM pg_roles WHERE rolname IN ('nexus_machine','nexus_person','nexus_policy')`;
    expect(r.n).toBe(3);
    expect(await migrateDesk(admin, PG_MIGRATIONS.slice(0, 3))).toBe(3);
    const [ix] = await admin`SELECT to_regclass('desk.record_by_kind') AS i`;
    expect(ix.i).toBe('desk.record_by_kind');
    expect(await migrateDesk(admin)).toBe(4);
    const [tg] = await admin`SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'answers_in_order'`;
    expect(tg.n).toBe(1);
    expect(await migrateDesk(admin)).toBe(4);
    const rows = await admin`SELECT version, name FROM desk_migrations ORDER BY version`;
    expect(rows.map((x) => x.version)).toEqual([1, 2, 3, 4]);
    await createDeskRoles(pg.adminUrl);
  });

  it('refuses an answer from a person whose teams do not answer that agent, and accepts a team member', async () => {
    const a = as('laptop_a');
    await a`INSERT INTO desk.machines (name, instance) VALUES ('a', 'i-a')`;
    await a`INSERT INTO desk.cards (machine, id, kind, run_id, agent, tool, target) VALUES ('a', 'row1', 'autonomy', 'run1', 'ops-bot', 'bash', 'ls')`;
    const carol = as('carol');
    expect(await carol`SELECT id FROM desk.cards`).toHaveLength(0); // not even visible
    await expect(carol`INSERT INTO desk.answers (machine, card_id, verdict, at_machine) VALUES ('a', 'row1', 'approve', 'c')`).rejects.toThrow(
      /row-level security/,
    );
    const bob = as('bob');
    expect((await bob`SELECT id FROM desk.cards`).map((c) => c.id)).toEqual(['row1']);
    const [ans] = await bob`INSERT INTO desk.answers (machine, card_id, verdict, at_machine) VALUES ('a', 'row1', 'approve', 'b') RETURNING by_role`;
    expect(ans.by_role).toBe('bob');
    // A person cannot sign an answer as someone else.
    await expect(bob`INSERT INTO desk.answers (machine, card_id, verdict, at_machine, by_role) VALUES ('a', 'row1', 'deny', 'b', 'alice')`).rejects.toThrow(
      /permission denied/,
    );
  });

  it("numbers one machine's answers in the order they commit: one begun first and committed last never hides under a later id", async () => {
    // Card row1 of machine a exists (the test above); bob answers it, twice at once.
    const first = as('bob');
    const second = as('bob');
    let secondId: number | null = null;
    const firstId = await first.begin(async (t) => {
      const [r] = await t`INSERT INTO desk.answers (machine, card_id, verdict, at_machine) VALUES ('a', 'row1', 'approve', 'b') RETURNING id`;
      // The second answer to the same machine waits for this one to commit before it takes its id.
      void second`INSERT INTO desk.answers (machine, card_id, verdict, at_machine) VALUES ('a', 'row1', 'deny', 'b') RETURNING id`.then(
        ([x]) => (secondId = Number(x.id)),
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(secondId).toBeNull();
      return Number(r.id);
    });
    for (let i = 0; i < 100 && secondId === null; i++) await new Promise((r) => setTimeout(r, 20));
    expect(secondId).toBeGreaterThan(firstId);
  });

  it('lets a machine write only its own cards and the record, and nobody alter the record', async () => {
    const b = as('laptop_b');
    await b`INSERT INTO desk.machines (name, instance) VALUES ('b', 'i-b')`;
    await expect(b`INSERT INTO desk.cards (machine, id, kind, run_id, tool, target) VALUES ('a', 'x', 'autonomy', 'r', 'bash', 'ls')`).rejects.toThrow(
      /row-level security/,
    );
    await b`INSERT INTO desk.record (machine, seq, kind, ref, data, at) VALUES ('b', 1, 'card', 'x', '{}', now())`;
    // Every login role the desk knows (each member of a desk group role) and the owner who ran `nexus desk init`.
    const roles = await as('desk_admin')`SELECT DISTINCT m.rolname FROM pg_roles m JOIN pg_auth_members am ON am.member = m.oid
                                        JOIN pg_roles g ON g.oid = am.roleid
                                        WHERE g.rolname IN ('nexus_machine', 'nexus_person', 'nexus_policy') AND m.rolcanlogin`;
    const everyone = [...roles.map((r) => String(r.rolname)), 'desk_admin'];
    expect(everyone).toEqual(expect.arrayContaining(['laptop_a', 'laptop_b', 'laptop_c', 'alice', 'bob', 'carol', 'pat']));
    for (const role of everyone) {
      const s = as(role);
      await expect(s`UPDATE desk.record SET kind = 'forged'`, role).rejects.toThrow(/permission denied|insert-only/);
      await expect(s`DELETE FROM desk.record`, role).rejects.toThrow(/permission denied|insert-only/);
      await expect(s`TRUNCATE desk.record`, role).rejects.toThrow(/permission denied|insert-only/);
      // Nor by re-sending a change under a key the record already holds: the receipt is the first one.
      await s`INSERT INTO desk.record (machine, seq, kind, ref, data, at) VALUES ('b', 1, 'forged', 'x', '{}', now()) ON CONFLICT DO NOTHING`.catch(() => {});
    }
    const [kept] = await as('desk_admin')`SELECT kind FROM desk.record WHERE machine = 'b' AND seq = 1`;
    expect(kept.kind).toBe('card');
    const [n] = await as('desk_admin')`SELECT count(*)::int AS n FROM desk.record WHERE kind = 'card'`;
    expect(n.n).toBe(1);
  });

  it('lets anyone on the desk pull Stop all but only a policy role (pat) change other policy', async () => {
    const bob = as('bob');
    await bob`INSERT INTO desk.policy (key, value) VALUES ('stop_all', 'true') ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    await expect(bob`INSERT INTO desk.policy (key, value) VALUES ('orchestration.enabled', 'true')`).rejects.toThrow(/row-level security/);
    await expect(bob`INSERT INTO desk.agent_teams (agent, team) VALUES ('ops-bot', 'carol')`).rejects.toThrow(/permission denied/);
    const pat = as('pat');
    await pat`INSERT INTO desk.agent_teams (agent, team) VALUES ('ci-bot', 'team_ops')`;
    await pat`INSERT INTO desk.policy (key, value) VALUES ('orchestration.enabled', 'true')`;
  });
});
