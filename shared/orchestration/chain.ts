// Chain arithmetic (DESIGN §3), pure. A chain member is one run the chain started (or its starter's run):
// its agent, its depth and the path of agents that handed work down to it.

/** Where one run sits in its chain. */
export interface ChainPosition {
  agent: string;
  /** The starter is at depth 1; an agent handed work by one at depth d is at d + 1. */
  depth: number;
  /** The orchestrators: agents that handed work down the path to this agent, starter first. */
  path: readonly string[];
}

/** What the gate needs to know about one governed hop. */
export interface HopFacts {
  chain_id: string;
  hop: number;
  /** The depth of the agent who will act: the recipient for a hand-off, else the actor. */
  depth: number;
  /** Distinct agents the chain will have touched, recipients included. */
  agents: number;
  /** Agents that handed work down the path to the agent who will act; each must be allowed. */
  orchestrators: readonly string[];
}

/** Facts of a hop taken by `actor`; `handoffTo` names the recipient when the hop hands work on. */
export function hopFacts(chain: { chain_id: string; touched: readonly string[] }, hop: number, actor: ChainPosition, handoffTo?: string | null): HopFacts {
  if (!handoffTo) {
    return { chain_id: chain.chain_id, hop, depth: actor.depth, agents: new Set(chain.touched).size, orchestrators: actor.path };
  }
  const touched = new Set(chain.touched);
  touched.add(handoffTo);
  return {
    chain_id: chain.chain_id,
    hop,
    depth: actor.depth + 1,
    agents: touched.size,
    orchestrators: [...actor.path, actor.agent],
  };
}

/** The position of the recipient of a hand-off made by `actor`. */
export function recipientPosition(actor: ChainPosition, recipient: string): ChainPosition {
  return { agent: recipient, depth: actor.depth + 1, path: [...actor.path, actor.agent] };
}

/** The starter of a chain: depth 1, nobody above it. */
export const starterPosition = (agent: string): ChainPosition => ({ agent, depth: 1, path: [] });

/** Tools that hand work to another agent: a chain begins (or grows) through them. */
export const HANDOFF_TOOLS: ReadonlySet<string> = new Set(['delegate_task', 'message_agent']);

/** The recipient named by a hand-off's input, when the call is one. */
export function handoffRecipient(tool: string, input: unknown): string | null {
  if (!HANDOFF_TOOLS.has(tool)) return null;
  const agent = input && typeof input === 'object' ? (input as Record<string, unknown>).agent : undefined;
  return typeof agent === 'string' && agent.length > 0 ? agent : null;
}
