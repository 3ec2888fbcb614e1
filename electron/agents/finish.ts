// The candidate final answer (DESIGN §2, §4): stop hooks first (each may ask for a bounded continuation
// with feedback, at most approval.stopHookCap times a turn; then the answer is accepted and the cap is
// reported), then the finalizers (GOVERNANCE's acceptance checks), then the turn ends with the answer.
import type { Db } from '../store/db.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Run } from '../kernel/types.js';
import { getTurnState, updateTurnState } from '../store/queries/conversation.js';
import type { HookRunner } from './hooks.js';
import { errorMessage } from '../../shared/errors.js';

/** `wait`: the answer cannot be judged yet (a person is asked something); the run stays running, idle, until a
 *  continuation re-opens the loop or it is stopped. */
export type FinalizerVerdict = { accept: true } | { accept: false; feedback: string } | { fail: string } | { wait: string } | undefined;
export type Finalizer = (run: Run, answer: string) => FinalizerVerdict | Promise<FinalizerVerdict>;

export interface FinishContext {
  kernel: Kernel;
  /** The agents' own tables (the conversation, turn state, questions): handed over by app.ts. */
  db: Db;
  hooks: HookRunner;
  finalizers: readonly Finalizer[];
  stopHookCap(): number;
  /** Add a user message (feedback) to the conversation. */
  say(run_id: string, turn: number, text: string): void;
  failRun(run_id: string, reason: string): void;
  event(run_id: string, type: string, data?: unknown): void;
  running(run_id: string): boolean;
}

export async function finishTurn(c: FinishContext, run: Run, answer: string): Promise<'ended' | 'continue'> {
  for (const spec of run.hooks.stop ?? []) {
    const r = await c.hooks.run(run, 'stop', spec);
    if (r.kind === 'canceled') return 'ended';
    if (r.kind !== 'continue') continue;
    const st = getTurnState(c.db, run.id)!;
    const cap = c.stopHookCap();
    if (st.stop_continuations >= cap) {
      c.event(run.id, 'stop_hook_cap_reached', { cap, tool: spec.tool, feedback: r.feedback });
      break;
    }
    updateTurnState(c.db, run.id, { stop_continuations: st.stop_continuations + 1 }, c.kernel.clock.now());
    c.event(run.id, 'stop_hook_continue', { tool: spec.tool, feedback: r.feedback, count: st.stop_continuations + 1, cap });
    c.say(run.id, st.turn, `A stop hook asked you to keep working before this answer is final:\n${r.feedback}`);
    return 'continue';
  }
  for (const fn of [...c.finalizers]) {
    let v: FinalizerVerdict;
    try {
      v = await fn(c.kernel.getRun(run.id)!, answer);
    } catch (e) {
      v = { fail: `a finalizer failed: ${errorMessage(e)}` };
    }
    if (!c.running(run.id)) return 'ended';
    if (!v) continue;
    if ('fail' in v) {
      c.failRun(run.id, v.fail);
      return 'ended';
    }
    if ('wait' in v) {
      c.event(run.id, 'turn_waiting', { reason: v.wait });
      return 'ended';
    }
    if (v.accept === false) {
      c.say(run.id, getTurnState(c.db, run.id)!.turn, v.feedback);
      c.event(run.id, 'answer_refused', { feedback: v.feedback.slice(0, 2000) });
      return 'continue';
    }
  }
  if (!c.running(run.id)) return 'ended';
  c.kernel.endRun(run.id, { status: 'succeeded', final_answer: answer });
  return 'ended';
}
