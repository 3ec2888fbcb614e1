// What a kernel joined to a team desk reads from the whole desk's record (docs/desk.md): runs, chains, holds and
// tasks of every machine, as the person answering from this machine may see them (row-level security decides).
// The desk's inbox and this machine's seat are in desk.ts.
import { z } from 'zod';
import { readMethod, strict } from './contract.js';

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
  deskRecord: readMethod(
    strict({ view: z.enum(['runs', 'chains', 'holds', 'tasks']), limit: z.number().int().min(1).max(1000).default(200) }),
    z.array(DeskObject),
    "The whole desk's runs, chains, orchestration holds or delegated tasks (with their check evidence), newest first, from its record.",
  ),
};
