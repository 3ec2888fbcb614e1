// message_agent { agent, message }: a hand-off too (DESIGN §3). It always starts a new turn of the other agent
// on the chain (hop 1 when the sender acts on its own, else a governed hop the gate already decided) and
// returns when that turn ends, with its final answer — or an error naming how the turn ended. No acceptance
// check: a message asks, it does not delegate a task. The answer travelling back is not a hop.
import type { ExecutorTool, Run, ToolContext } from '../kernel/types.js';
import type { ToolResult } from '../../shared/types.js';
import { bindMemberRun } from '../store/queries/chains.js';
import { placeHandoff } from './handoff.js';
import { NAME_RE } from './delegate-input.js';
import { toolError } from '../kernel/results.js';
import type { Delegation } from './delegation.js';
import type { Governance } from './service.js';

export class MessageAgent {
  constructor(
    private readonly gov: Governance,
    private readonly delegation: Delegation,
  ) {}

  readonly tool: ExecutorTool = {
    name: 'message_agent',
    description: "Send a message to another agent: it starts that agent's turn; the result is its answer when the turn ends.",
    inputSchema: {
      type: 'object',
      properties: { agent: { type: 'string', description: 'The agent to message.' }, message: { type: 'string' } },
      required: ['agent', 'message'],
    },
    target: (input) => {
      const a = (input as { agent?: unknown } | null)?.agent;
      return typeof a === 'string' ? a : '(no agent)';
    },
    run: (input, ctx) => this.message(input, ctx),
  };

  /** message_agent: a hand-off too. Returns when the other agent's turn ends, with its answer. */
  private async message(input: unknown, ctx: ToolContext): Promise<ToolResult> {
    const i = (input ?? {}) as Record<string, unknown>;
    if (typeof i.agent !== 'string' || !NAME_RE.test(i.agent))
      return toolError('message_agent needs "agent": the name of the agent to message.', 'invalid_input');
    if (typeof i.message !== 'string' || !i.message.trim()) return toolError('message_agent needs "message": the text to send.', 'invalid_input');
    const bad = this.delegation.checkRecipient(ctx, i.agent);
    if (bad) return toolError(bad, 'unknown_agent');
    const from = ctx.run.agent!;
    const place = placeHandoff(this.gov, ctx, from, i.agent, 'message_agent', i.agent);
    let run: Run;
    try {
      run = await this.gov.turns().startTurn({
        agent: i.agent,
        prompt: `Message from agent "${from}":\n\n${i.message}\n\nYour final answer is sent back to "${from}".`,
        chain: { chain_id: place.chain_id, depth: place.position.depth },
        parent: { run_id: ctx.run.id, row_id: ctx.row.id },
      });
    } catch (e) {
      return toolError(`The message could not be delivered to "${i.agent}": ${(e as Error).message}`, 'delegation_failed');
    }
    bindMemberRun(this.gov.db, ctx.row.id, run.id);
    const ended = await this.waitRunEnd(run.id, ctx.signal);
    if (!ended) {
      this.gov.kernel.stopRun(run.id, { reason: 'the messaging run was stopped' });
      return toolError(`The conversation with "${i.agent}" was stopped.`, 'canceled');
    }
    if (ended.status === 'succeeded') {
      return { content: [{ type: 'text', text: ended.final_answer ?? '' }], structuredContent: { agent: i.agent, run_id: run.id, status: 'succeeded' } };
    }
    return toolError(`"${i.agent}" did not answer: its turn ${ended.status}${ended.error ? ` (${ended.error})` : ''}.`, 'agent_turn_failed', {
      agent: i.agent,
      run_id: run.id,
      status: ended.status,
    });
  }

  /** Resolves with the run once it is not running (null if `signal` aborts first). */
  private waitRunEnd(run_id: string, signal: AbortSignal): Promise<Run | null> {
    return new Promise((resolve) => {
      let off = () => {};
      const check = () => {
        const r = this.gov.kernel.getRun(run_id);
        if (r && r.status !== 'running') {
          off();
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        }
      };
      const onAbort = () => {
        off();
        resolve(null);
      };
      off = this.gov.kernel.on((e) => {
        if ((e.type === 'run_event' && e.run_id === run_id) || e.type === 'runs_changed') check();
      });
      signal.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }
}
