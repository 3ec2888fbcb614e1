// delegate_task's input: every problem is a sentence the model reads.
import { z } from 'zod';

export const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface DelegateInput {
  agent: string;
  task: string;
  acceptance_check: { command: string; timeout_s?: number };
}

const AGENT_NEEDED = 'delegate_task needs "agent": the name of the agent to hand the task to.';
const TASK_NEEDED = 'delegate_task needs "task": what the other agent should do.';
const CHECK_NEEDED =
  'delegate_task needs "acceptance_check": { "command": "…", "timeout_s"?: N } — a shell command run in the recipient\'s workspace that exits 0 only when the task is really done. A delegated task cannot be completed on the recipient\'s word alone.';
const COMMAND_NEEDED = 'acceptance_check.command must be a non-empty shell command.';
const TIMEOUT_RANGE = 'acceptance_check.timeout_s must be a number of seconds in (0, 3600].';
const nonBlank = (s: string) => s.trim() !== '';

/** delegate_task's input: every problem is a sentence the model reads and can act on. */
export const DelegateInputSchema = z.object(
  {
    agent: z.string({ error: AGENT_NEEDED }).regex(NAME_RE, AGENT_NEEDED),
    task: z.string({ error: TASK_NEEDED }).refine(nonBlank, TASK_NEEDED),
    acceptance_check: z.object(
      {
        command: z.string({ error: COMMAND_NEEDED }).refine(nonBlank, COMMAND_NEEDED),
        timeout_s: z.number({ error: TIMEOUT_RANGE }).gt(0, TIMEOUT_RANGE).max(3600, TIMEOUT_RANGE).optional(),
      },
      { error: CHECK_NEEDED },
    ),
  },
  { error: 'delegate_task takes an object: { "agent", "task", "acceptance_check" }.' },
);

/** Validate delegate_task's input; a missing acceptance check is a clear tool error, never a default. */
export function parseDelegateInput(input: unknown): { ok: true; value: DelegateInput } | { ok: false; message: string } {
  const r = DelegateInputSchema.safeParse(input ?? {});
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, message: [...new Set(r.error.issues.map((i) => i.message))].join(' ') };
}
