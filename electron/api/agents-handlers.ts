// The turns' methods of the API: runsStart (a person starts an agent's turn) and runsShow with the
// conversation (what the model read and said); and the profile's create and replace, which refuse what the
// caller did not mean (agentsSave does either). Merged after the kernel's handlers in electron/api/index.ts.
import type { Handlers } from './dispatch.js';
import { ApiFailure, personBy } from './dispatch.js';
import type { Nexus } from '../app.js';
import { kernelHandlers, runSummary, saveAgentProfile } from './kernel-handlers.js';
import { getAgent } from '../store/queries/agents.js';
import { allMessages } from '../kernel/turns/conversation-store.js';
import type { TurnEngine } from '../kernel/turns/engine.js';

const by = personBy;

export function agentsHandlers(nexus: Nexus): Pick<Handlers, 'runsStart' | 'runsShow' | 'agentsCreate' | 'agentsReplace'> {
  const turns = (): TurnEngine => {
    const t = nexus.services.turns as TurnEngine | undefined;
    if (!t) throw new ApiFailure('not_implemented', 'Agent turns are not available in this build.');
    return t;
  };
  const kernelShow = kernelHandlers(nexus).runsShow;
  // A removed agent's name starts fresh: it may be created again, and is not there to replace. The check and
  // the save run in one synchronous step, so no other call can create or remove the name in between.
  const isActive = (name: string) => getAgent(nexus.db, name)?.status === 'active';
  return {
    agentsCreate: (input) => {
      if (isActive(input.name)) throw new ApiFailure('conflict', `An agent named ${input.name} already exists: nothing was changed. Replace it (agentsReplace), or choose another name.`);
      const { agent, warnings } = saveAgentProfile(nexus.kernel, input);
      return { agent, warnings };
    },
    agentsReplace: (input) => {
      if (!isActive(input.name)) throw new ApiFailure('not_found', `No agent named ${input.name}: nothing was saved. Create it (agentsCreate) instead.`);
      const { agent, warnings } = saveAgentProfile(nexus.kernel, input);
      return { agent, warnings };
    },
    runsStart: ({ agent, prompt, mode, extra_rules }, ctx) => runSummary(turns().startTurn({ agent, prompt, mode, extra_rules, created_by: by(ctx) }), 0),
    runsShow: async (input, ctx) => {
      const detail = await kernelShow(input, ctx);
      const messages = allMessages(nexus.db, input.id).map((m) => ({ id: m.id, turn: m.turn, round: m.round, kind: m.kind, compacted: m.compacted, at: m.created_at, ...m.message }));
      return { ...detail, messages };
    },
  };
}
