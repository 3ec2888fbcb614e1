// A hand-off (delegate_task, message_agent): where the recipient sits in the chain, recorded BEFORE its run
// starts. An agent acting on its own that hands work on begins a chain: that hand-off is hop 1 (not governed;
// the approval stage already applied to it). A hand-off from a run the chain started is a governed hop the
// gate already recorded.
import { getChain, addMember, beginChain, memberOf } from '../store/queries/chains.js';
import { recipientPosition, starterPosition, type ChainPosition } from '../../shared/orchestration/chain.js';
import type { Governance } from './service.js';
import type { ToolContext } from '../kernel/types.js';
import { touch } from '../store/queries/chains.js';

export interface HandoffPlace {
  chain_id: string;
  position: ChainPosition;
  /** True when this hand-off began the chain (hop 1). */
  began: boolean;
}

export function placeHandoff(gov: Governance, ctx: ToolContext, from: string, recipient: string, action: string, target: string): HandoffPlace {
  const now = gov.now();
  const member = memberOf(gov.db, ctx.run);
  if (member) {
    // The gate admitted this hop and touched the recipient; touch again in case the row was not a model row.
    touch(gov.db, member.chain_id, recipient, now);
    const position = recipientPosition(member, recipient);
    addMember(gov.db, { handoff_row_id: ctx.row.id, chain_id: member.chain_id, position, now });
    return { chain_id: member.chain_id, position, began: false };
  }
  const chain = beginChain(gov.db, { starter: from, starterRunId: ctx.run.id, recipient, now });
  const position = recipientPosition(starterPosition(from), recipient);
  addMember(gov.db, { handoff_row_id: ctx.row.id, chain_id: chain.id, position, now });
  gov.recent.recordHop(chain.id, { hop: 1, agent: from, action, target, verdict: 'allowed' });
  return { chain_id: chain.id, position, began: true };
}

export const chainExists = (gov: Governance, id: string) => getChain(gov.db, id) !== null;
