// runsStart: a person starts an agent's turn (the turn engine electron/app.ts hands over).
import type { Handlers } from './dispatch.js';
import { personBy } from './dispatch.js';
import { runSummary } from './kernel-views.js';
import type { Run } from '../kernel/types.js';
import type { StartTurnOptions } from '../agents/turn-options.js';

/** What runsStart needs of the turn engine. */
export interface StartTurnPort {
  startTurn(o: StartTurnOptions): Run;
}

export const TURNS_METHODS = ['runsStart'] as const;

export function agentsHandlers(turns: StartTurnPort): Pick<Handlers, (typeof TURNS_METHODS)[number]> {
  return {
    runsStart: ({ agent, prompt, mode, extra_rules }, ctx) => runSummary(turns.startTurn({ agent, prompt, mode, extra_rules, created_by: personBy(ctx) }), 0),
  };
}
