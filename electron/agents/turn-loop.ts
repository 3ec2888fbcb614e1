// The loop that drives a run through rounds (DESIGN §2, §4). It is resumable from the stored conversation: what
// to do next is read from the last live message (assistant with calls -> collect the fan; assistant without ->
// finish; else -> call the model).
import type { Run } from '../kernel/types.js';
import { getTurnState, liveMessages, type MessageKind } from '../store/queries/conversation.js';
import type { HookRunner } from './hooks.js';
import type { Compactor } from './compaction.js';
import type { RunResources } from './run-resources.js';
import { deliverContinuations } from './continuations.js';
import { tokenBudget } from './turn-limits.js';
import { collectFan, modelRound, type RoundContext } from './rounds.js';
import { endAtBudget, spentBudget } from './budget.js';

/** What the loop gets from the engine beyond a round's needs. */
export interface TurnLoopContext extends RoundContext {
  resources: RunResources;
  hooks: HookRunner;
  compactor: Compactor;
  /** The texts planted for a run and not yet delivered. */
  continuations(run_id: string): string[] | undefined;
  /** Compaction budget in estimated tokens (a profile's `context_budget_tokens` overrides it). */
  tokenBudget(): number | undefined;
  /** Add a user message to the conversation. */
  say(run_id: string, turn: number, kind: MessageKind, text: string): void;
  /** The candidate final answer: stop hooks, then the finalizers. */
  finish(run: Run, answer: string): Promise<'ended' | 'continue'>;
}

export async function driveTurn(c: TurnLoopContext, run_id: string, newTurn: boolean): Promise<void> {
  let run = c.kernel.getRun(run_id);
  if (!run || run.status !== 'running') return;
  await c.resources.prepareTools(run);
  if (newTurn) {
    c.event(run_id, 'turn_started', { turn: getTurnState(c.db, run_id)?.turn ?? 1 });
    for (const spec of run.hooks.turn_start ?? []) {
      const r = await c.hooks.run(run, 'turn_start', spec);
      if (r.kind === 'canceled') return;
    }
  }
  while (c.running(run_id)) {
    run = c.kernel.getRun(run_id)!;
    const live = liveMessages(c.db, run_id);
    const last = live[live.length - 1]?.message;
    if (last?.role === 'assistant' && last.toolCalls?.length) {
      await collectFan(c, run, live[live.length - 1]!.round ?? 0, last.toolCalls);
      continue;
    }
    if (c.continuations(run_id)?.length) {
      // Planted text comes before finishing: a continuation after an answer starts more work.
      const say = (run_id: string, turn: number, text: string) => c.say(run_id, turn, 'continuation', text);
      if (!(await deliverContinuations({ ...c, say }, run, c.continuations(run_id)))) return;
      continue;
    }
    if (last?.role === 'assistant') {
      if ((await c.finish(run, last.text)) === 'ended') return;
      continue;
    }
    const compacted = await c.compactor.maybeCompact(run, tokenBudget(c.db, run, c.tokenBudget()));
    if (compacted === 'canceled') return;
    if (compacted !== 'ok') {
      c.failRun(run_id, compacted.failed);
      return;
    }
    if (!c.running(run_id)) return;
    const spent = spentBudget(c.db, run);
    if (spent)
      return endAtBudget(
        c.kernel,
        run,
        spent,
        (id, reason) => c.failRun(id, reason),
        (id, t, d) => c.event(id, t, d),
      );
    await modelRound(c, run);
  }
}
