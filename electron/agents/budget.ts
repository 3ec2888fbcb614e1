// The runaway budget (issue 25.3): depth and breadth bound chains, this bounds a lone run. Before each model
// round the run's rounds and rows are counted against its profile's max_rounds / max_rows (defaults 200 and
// 2,000); spent, the run ends failed with a sentence saying which limit and what to do, and an attention card
// tells the person (Abandon dismisses it; there is nothing to retry: the run has ended).
import type { Db } from '../store/db.js';
import { getAgent } from '../store/queries/agents.js';
import { maxSeq } from '../store/queries/rows.js';
import { KernelError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Run } from '../kernel/types.js';
import { getTurnState } from '../store/queries/conversation.js';
import type { HookRunner } from './hooks.js';
import { budgetSpent, DEFAULT_MAX_ROUNDS, DEFAULT_MAX_ROWS } from './turn-limits.js';

export const BUDGET_SOURCE = 'budget';

/** The sentence of a spent budget, or null: rounds from the turn state, rows as the run's highest row number. */
export function spentBudget(db: Db, run: Run): string | null {
  const agent = run.agent ? getAgent(db, run.agent) : null;
  return budgetSpent(agent, { rounds: getTurnState(db, run.id)?.round ?? 0, rows: maxSeq(db, run.id) });
}

/** What the run detail shows: used and allowed, rounds and rows. */
export function budgetOf(db: Db, run: Run) {
  const agent = run.agent ? getAgent(db, run.agent) : null;
  return {
    rounds: getTurnState(db, run.id)?.round ?? 0,
    rows: maxSeq(db, run.id),
    max_rounds: agent?.max_rounds ?? DEFAULT_MAX_ROUNDS,
    max_rows: agent?.max_rows ?? DEFAULT_MAX_ROWS,
  };
}

/** Retry is refused in a sentence (the run has ended); Abandon dismisses the card. */
export function registerBudgetCards(kernel: Kernel, hooks: HookRunner): void {
  hooks.registerAttentionSource(BUDGET_SOURCE, {
    retry: () => {
      throw new KernelError('not_supported', 'This run has ended at its budget: start a new run to go on, or raise max_rounds / max_rows in the agent file.');
    },
    abandon: (item, o) => {
      kernel.inbox.resolve(item.id, 'abandoned', o.by);
      return { state: 'abandoned' };
    },
  });
}

/** End the run at its budget: the event, the failed run with the sentence, then the card. */
export function endAtBudget(
  kernel: Kernel,
  run: Run,
  sentence: string,
  failRun: (run_id: string, reason: string) => void,
  event: (run_id: string, type: string, data?: unknown) => void,
): void {
  event(run.id, 'budget_reached', { message: sentence });
  failRun(run.id, sentence);
  kernel.inbox.add(
    {
      id: newId('att'),
      kind: 'attention',
      run_id: run.id,
      agent: run.agent,
      tool: 'budget',
      target: 'runaway budget',
      data: { source: BUDGET_SOURCE, message: sentence },
    },
    `${run.agent ?? 'A run'}: the run reached its budget`,
  );
}
