// What governance needs from AGENTS' turns (electron/agents/): the turn engine satisfies it.
import type { Run } from '../kernel/types.js';
import type { InboxKindHandler } from '../kernel/inbox.js';

/** `wait`: the answer cannot be judged yet (a person is asked something); the run stays running, idle, until a
 *  continuation re-opens the loop or it is stopped. */
export type FinalizerVerdict = { accept: true } | { accept: false; feedback: string } | { fail: string } | { wait: string } | undefined;
export type Finalizer = (run: Run, answer: string) => FinalizerVerdict | Promise<FinalizerVerdict>;

export interface TurnsPort {
  startTurn(o: {
    agent: string;
    prompt: string;
    run?: string;
    chain?: { chain_id: string; depth?: number };
    parent?: { run_id: string; row_id: string };
  }): Run | Promise<Run>;
  continueRun(run_id: string, text: string): unknown;
  addFinalizer(fn: Finalizer): unknown;
  hooks: { registerAttentionSource(source: string, handler: InboxKindHandler): void };
}
