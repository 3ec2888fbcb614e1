// Desk schema 004: answers to one machine take their ids in the order they commit. The owner catches up by id
// (`id > seen`: NOTIFY has no replay); two answers inserted at once could otherwise commit out of id order, and
// the one with the lower id, committed last, was never read: its card stayed pending on the owner. Each insert
// now waits for its machine's lock (held until it commits), then takes its id.
import type { PgMigration } from './types.js';

const migration: PgMigration = {
  version: 4,
  name: 'answers_in_order',
  sql: `
    CREATE FUNCTION desk.answer_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('nexus_desk_answers:' || NEW.machine));
        NEW.id := nextval('desk.answers_id_seq');
        RETURN NEW;
      END $$;
    CREATE TRIGGER answers_in_order BEFORE INSERT ON desk.answers FOR EACH ROW EXECUTE FUNCTION desk.answer_in_order();
  `,
};
export default migration;
