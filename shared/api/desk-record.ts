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

export const DeskObject = strict({
  machine: z.string(),
  id: z.string(),
  first_at: z.string(),
  last_at: z.string(),
  /** The object as its owner last recorded it (a run: agent, status, mode, chain; a task: recipient, status…). */
  state: z.record(z.string(), z.unknown()),
  /** A task's check evidence, in order. */
  evidence: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type DeskObject = z.infer<typeof DeskObject>;

export const deskRecordMethods = {
  deskInbox: method(
    strict({ limit: z.number().int().min(1).max(10_000).default(1000) }).default({ limit: 1000 }),
    z.array(DeskCard),
    "Every machine's pending cards at the team desk this machine joined, oldest first (those its person may read).",
  ),
  deskRecord: method(
    strict({ view: z.enum(['runs', 'chains', 'holds', 'tasks']), limit: z.number().int().min(1).max(1000).default(200) }),
    z.array(DeskObject),
    "The whole desk's runs, chains, orchestration holds or delegated tasks (with their check evidence), newest first, from its record.",
  ),
};
