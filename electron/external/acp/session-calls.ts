// What one ACP session's handlers share: its state, NEXUS's own tools called as rows of its run, and the
// refusal the agent reads. Apart from client-handlers.ts so the terminals can use them without a cycle.
import { RequestError } from '@agentclientprotocol/sdk';
import type { Kernel } from '../../kernel/kernel.js';
import type { Row } from '../../kernel/types.js';

export interface SessionState {
  kernel: Kernel;
  agent: string;
  run_id: string;
  signal: AbortSignal;
  /** The agent's message text so far: the run's final answer. */
  answer: string[];
  /** Tells the agent's model a line while its turn runs (a queued prompt), when the agent can queue prompts. */
  tell: ((text: string) => void) | null;
}

/** One of NEXUS's own tools as a row of the run, waited for (parked cards included). */
export async function ownCall(s: SessionState, tool: string, input: Record<string, unknown>): Promise<Row> {
  const row = s.kernel.submitRow(s.run_id, { tool, input, origin: 'model' });
  return s.kernel.waitRow(row.id, { signal: s.signal });
}

/** A refusal the agent (and its model) reads: the SDK would turn a plain Error into "Internal error". */
export const refused = (text: string) => new RequestError(-32000, text);
