// While this machine is at a team desk, the desk holds the policy it published (electron/desk/policy.ts): a local
// edit of an agent profile or a setting the desk holds is refused with a sentence, so no machine drifts from the
// desk silently. The desk's own changes reach the store through the kernel's functions, not these doors. Agents
// and settings the desk does not hold stay this machine's to change.
import type { DeskClient } from '../desk/client.js';
import { HELD_AGENT, HELD_SETTING } from '../desk/policy.js';
import { ApiFailure } from '../../shared/errors.js';
import type { Handlers } from './dispatch.js';

export function refuseWhatTheDeskHolds(h: Handlers, deskNow: () => DeskClient | null): Handlers {
  const agent = (name: string) => {
    if (deskNow()?.policy.held.agents.has(name)) throw new ApiFailure('forbidden', HELD_AGENT(name));
  };
  return {
    ...h,
    agentsSave: (input, ctx) => (agent(input.name), h.agentsSave(input, ctx)),
    agentsCreate: (input, ctx) => (agent(input.name), h.agentsCreate(input, ctx)),
    agentsReplace: (input, ctx) => (agent(input.name), h.agentsReplace(input, ctx)),
    agentsRemove: (input, ctx) => (agent(input.name), h.agentsRemove(input, ctx)),
    settingsSet: (input, ctx) => {
      if (deskNow()?.policy.held.settings.has(input.key)) throw new ApiFailure('forbidden', HELD_SETTING(input.key));
      return h.settingsSet(input, ctx);
    },
  };
}
