// The team desk's interfaces (DESIGN §8, docs/desk.md): this machine's seat (status, join, leave), the desk's
// inbox of every machine's cards, and answering one of them. Owned by DESK. A password goes in once (deskJoin)
// and never comes back out: no output carries it, and the URL is always shown without one.
import { z } from 'zod';
import { method, readMethod, strict } from './contract.js';

/** A machine's name at the desk (Postgres keys the record by it). */
export const DeskMachine = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'a machine name is letters, digits, dot, dash or underscore (at most 63)');
/** A Postgres role: the person answering from this machine. */
export const DeskRole = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'a Postgres role is letters, digits, _ or $ (at most 63, not starting with a digit)');

export const DeskStatus = strict({
  /** This machine has a seat at a desk (it may still be unreachable: see connected). */
  joined: z.boolean(),
  /** Where the seat came from: `nexus serve --desk` or NEXUS_DESK_URL (start), or Settings ▸ Desk / deskJoin (saved). */
  source: z.enum(['start', 'saved']).nullable(),
  /** The desk's URL without its password. */
  url: z.string().nullable(),
  machine: z.string().nullable(),
  person: z.string().nullable(),
  connected: z.boolean(),
  last_heard_at: z.string().nullable(),
  /** Changes written here that the desk has not confirmed yet. */
  outbox_pending: z.number().int(),
  /** Silent longer than silence_stop_s: governed hops stop here until the desk is heard again. */
  silence_stop: z.boolean(),
  silence_stop_s: z.number().nullable(),
  /** A password for the desk is kept in this NEXUS's secret store (never the value). */
  password_stored: z.boolean(),
  /** Where a stored password is: encrypted by the OS keychain (desktop app), or a file only you may read (`nexus serve`). */
  password_store: z.string(),
  /** Why the last exchange with the desk failed, in words. */
  last_error: z.string().nullable(),
});
export type DeskStatus = z.infer<typeof DeskStatus>;

export const DeskCard = strict({
  /** The machine that owns the card: where it will run once answered. */
  machine: z.string(),
  /** This machine's own card (answered here like any local card). */
  local: z.boolean(),
  id: z.string(),
  kind: z.string(),
  run_id: z.string(),
  agent: z.string().nullable(),
  tool: z.string(),
  target: z.string(),
  expires_at: z.string().nullable(),
});
export type DeskCard = z.infer<typeof DeskCard>;

export const deskMethods = {
  deskStatus: readMethod(strict({}), DeskStatus, "This machine's seat at the team desk: joined or not, connected, last heard, outbox backlog."),
  deskJoin: method(
    strict({
      url: z
        .string()
        .max(2048)
        .regex(/^postgres(ql)?:\/\/[^\s]+$/, 'the desk URL starts with postgres:// or postgresql://'),
      machine: DeskMachine,
      person: DeskRole.nullable(),
      /** Kept in the secret store (the OS keychain in the desktop app), never in the database or a log. */
      password: z.string().min(1).max(1024).optional(),
    }),
    DeskStatus,
    'Join the team desk at URL as machine NAME (answering as person); remembered until deskLeave.',
  ),
  deskLeave: method(
    strict({ force: z.boolean().optional() }),
    DeskStatus,
    'Leave the team desk: send what waits in the outbox, then forget the seat and its password (force: leave even when the desk cannot be reached).',
  ),
  deskInbox: readMethod(
    strict({ limit: z.number().int().min(1).max(10_000).optional() }),
    strict({ machine: z.string().nullable(), cards: z.array(DeskCard) }),
    "The desk's pending cards this machine's person may read, every machine's, oldest first.",
  ),
  deskAnswer: method(
    strict({ id: z.string().min(1).max(200), verdict: z.enum(['approve', 'deny']), reason: z.string().max(2000).nullable().optional() }),
    strict({ answer_id: z.number().int(), machine: z.string() }),
    'Answer a card of another desk machine as this machine’s person; its owner applies the first answer it commits.',
  ),
  deskPolicyPush: method(
    strict({}),
    strict({ keys: z.array(z.string()), person: z.string() }),
    "Publish this machine's agent profiles and settings (the allowlist among them) to the desk's policy as this machine's person; only a member of nexus_policy may (the database refuses anyone else). Every joined machine applies them.",
  ),
};
