// The turns' methods of the API: runsStart (a person starts an agent's turn) and runsShow with the
// conversation (what the model read and said). Merged after the kernel's handlers in electron/api/index.ts.
import type { Handlers } from './dispatch.js';
import { ApiFailure, personBy } from './dispatch.js';
import type { Nexus } from '../app.js';
import { kernelHandlers, runSummary } from './kernel-handlers.js';
import { allMessages } from '../kernel/turns/conversation-store.js';
import type { TurnEngine } from '../kernel/turns/engine.js';

const by = personBy;

export function agentsHandlers(nexus: Nexus): Pick<Handlers, 'runsStart' | 'runsShow'> {
  const turns = (): TurnEngine => {
    const t = nexus.services.turns as TurnEngine | undefined;
    if (!t) throw new ApiFailure('not_implemented', 'Agent turns are not available in this build.');
    return t;
  };
  const kernelShow = kernelHandlers(nexus).runsShow;
  return {
    runsStart: ({ agent, prompt, mode, extra_rules }, ctx) => runSummary(turns().startTurn({ agent, prompt, mode, extra_rules, created_by: by(ctx) }), 0),
    runsShow: async (input, ctx) => {
      const detail = await kernelShow(input, ctx);
      const messages = allMessages(nexus.db, input.id).map((m) => ({ id: m.id, turn: m.turn, round: m.round, kind: m.kind, compacted: m.compacted, at: m.created_at, ...m.message }));
      return { ...detail, messages };
    },
  };
}
