// What a kernel joined to a team desk reads from the whole desk (docs/desk.md): every machine's pending cards,
// as the person answering from this machine may see them (the database's row-level security decides).
import { z } from 'zod';
import { method, strict } from './contract.js';
import { Id } from './common.js';

export const DeskCard = strict({
  /** The machine that owns the card: its kernel runs the row and applies the first answer. */
  machine: z.string(),
  id: Id,
  kind: z.string(),
  run_id: Id,
  agent: z.string().nullable(),
  tool: z.string(),
  target: z.string(),
  expires_at: z.string().nullable(),
});
export type DeskCard = z.infer<typeof DeskCard>;

export const deskRecordMethods = {
  deskInbox: method(
    strict({ limit: z.number().int().min(1).max(10_000).default(1000) }).default({ limit: 1000 }),
    z.array(DeskCard),
    "Every machine's pending cards at the team desk this machine joined, oldest first (those its person may read).",
  ),
};
