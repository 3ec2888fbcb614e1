// What joining a team desk takes (the options of `nexus serve --desk`), what the seat reports about itself
// (`nexus desk status`: DESIGN §8), and this data dir's identity at the desk.
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.js';
import { readDeskState, writeDeskState } from '../store/queries/desk-outbox.js';

export const DeskOptionsSchema = z.object({
  url: z.string().regex(/^postgres(ql)?:\/\//, 'the desk URL starts with postgres:// or postgresql://'),
  machine: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'a machine name is letters, digits, dot, dash or underscore (max 63)'),
  /** The Postgres role of the person answering from this machine (the connection's role must be a member). */
  person: z.string().min(1).max(63).nullable().default(null),
  silenceStopS: z.number().positive().max(3600).default(10),
  heartbeatMs: z.number().int().min(50).max(60_000).default(1000),
  /** From the secret store (Settings ▸ Desk); never part of the URL shown, the database or a log. */
  password: z.string().min(1).optional(),
});
export type DeskOptions = z.input<typeof DeskOptionsSchema>;

export interface DeskStatus {
  url: string;
  machine: string;
  connected: boolean;
  last_heard_at: string | null;
  outbox_pending: number;
  /** Why the last exchange with the desk failed (no secret: Postgres errors do not echo passwords). */
  last_error: string | null;
}

/** The URL as it may be shown: never its password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

/** This data dir's identity at the desk, made once and kept in its own store. */
export function deskInstance(db: Db): string {
  let id = readDeskState<string | null>(db, { key: 'instance', schema: z.string().uuid(), fallback: null });
  if (!id) writeDeskState(db, { key: 'instance', value: (id = randomUUID()) });
  return id;
}
