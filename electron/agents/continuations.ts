// Kernel continuations planted with continueRun: each becomes a kernel row `continuation` (on the record, across
// the stage by its origin), and once that row succeeds, a user message in the run's conversation.
import type { Db } from '../store/db.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Row, Run } from '../kernel/types.js';
import { getTurnState } from '../store/queries/conversation.js';
import { continuationTool } from './internal-tools.js';

export interface ContinuationContext {
  kernel: Kernel;
  /** The agents' own tables (the conversation, turn state, questions): handed over by app.ts. */
  db: Db;
  running(run_id: string): boolean;
  event(run_id: string, type: string, data?: unknown): void;
  /** Add a continuation as a user message to the conversation. */
  say(run_id: string, turn: number, text: string): void;
}

/** Delivers (and drains) the queued texts; false when the run stopped meanwhile. */
export async function deliverContinuations(c: ContinuationContext, run: Run, queue: string[] | undefined): Promise<boolean> {
  while (queue && queue.length) {
    const text = queue.shift()!;
    const st = getTurnState(c.db, run.id)!;
    let row: Row;
    try {
      row = await c.kernel.waitRow(c.kernel.submitRow(run.id, { tool: continuationTool.name, input: { text }, origin: 'kernel', round: null }).id);
    } catch (e) {
      if (!c.running(run.id)) return false;
      throw e;
    }
    if (!c.running(run.id)) return false;
    if (row.state !== 'succeeded') {
      c.event(run.id, 'continuation_refused', { row_id: row.id, state: row.state, error: row.error });
      continue;
    }
    c.say(run.id, st.turn, text);
    c.event(run.id, 'continuation_delivered', { row_id: row.id });
  }
  return true;
}
