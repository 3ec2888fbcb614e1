// delegate_task's input: what the model is shown of it (the tool's schema) and how it is read (every problem is
// a sentence the model reads).
import { z } from 'zod';
import type { ExecutorTool } from '../kernel/types.js';

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

/** The tool as the model sees it: its name, what it does, its input's schema, and the card's target (the recipient). */
export const DELEGATE_TOOL: Pick<ExecutorTool, 'name' | 'description' | 'inputSchema' | 'target'> = {
  name: 'delegate_task',
  description:
    "Hand a task to another agent. Requires acceptance_check: a shell command run in the recipient's workspace that must exit 0 before the task counts as done. Returns the recipient's answer once the check passes.",
  inputSchema: {
    type: 'object',
    properties: {
      agent: { type: 'string', description: 'The agent to hand the task to.' },
      task: { type: 'string', description: 'What it should do.' },
      acceptance_check: {
        type: 'object',
        properties: { command: { type: 'string', description: 'Exits 0 only when the task is done.' }, timeout_s: { type: 'number' } },
        required: ['command'],
      },
    },
    required: ['agent', 'task', 'acceptance_check'],
  },
  target: (input) => {
    const a = (input as { agent?: unknown } | null)?.agent;
    return typeof a === 'string' ? a : '(no agent)';
  },
};
