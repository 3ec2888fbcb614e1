// The inbox card of an orchestration hold: the same place as autonomy cards, saying that orchestration is
// asking (kind `orchestration`, id = the hold's request id). Only what the card says is built here; the gate
// writes it with the hold and announces it once both are committed (hop-gate.ts).
import type { Kernel } from '../kernel/kernel.js';
import type { HopGateCall } from '../kernel/types.js';
import { callEffect, type CallEffect } from '../kernel/effect.js';
import type { InsertInboxItem } from '../store/queries/inbox.js';
import type { Task } from '../store/queries/tasks.js';
import { holdExpiresAt, type Hold } from '../store/queries/holds.js';

export interface HoldCard {
  item: Omit<InsertInboxItem, 'now'>;
  /** The notification's title (`work_available`). */
  title: string;
}

/** The delegated task as a person reads it on one line: its own words, cut (its id says nothing to them). */
const TASK_TEXT_MAX = 240;
export function taskLine(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > TASK_TEXT_MAX ? `${one.slice(0, TASK_TEXT_MAX - 1)}…` : one;
}

/** `task`: the delegation that waits on this answer, named on the card by its words (who waits, on what). */
export function holdCard(
  kernel: Pick<Kernel, 'tools' | 'sandboxPolicy'>,
  h: Hold,
  call: HopGateCall,
  task: Pick<Task, 'id' | 'delegator' | 'task'> | null,
): HoldCard {
  const waits = task ? ` It is part of the task "${taskLine(task.task)}" that "${task.delegator}" delegated, which waits on this answer.` : '';
  return {
    item: {
      id: h.request_id,
      kind: 'orchestration',
      run_id: h.run_id,
      row_id: h.row_id,
      agent: h.agent,
      tool: h.tool,
      target: h.target,
      hop: h.hop,
      chain_id: h.chain_id,
      expires_at: holdExpiresAt(h),
      data: {
        asking: 'orchestration',
        message: `Orchestration per-hop approval: agent "${h.agent}" wants ${h.tool} on ${JSON.stringify(h.target)} — hop ${h.hop} of chain ${h.chain_id}. Not the agent's own autonomy mode: this is a policy about the chain.${waits} Unanswered, it expires in 24 hours and the hop is refused.`,
        input: h.input,
        effect: holdEffect(kernel, h, call),
        request_id: h.request_id,
        trustable: false,
      },
    },
    title: `Orchestration: ${h.agent} wants ${h.tool} ${h.target} (hop ${h.hop})`,
  };
}

/**
 * What the person reads on a hold's card, like an autonomy card's effect profile (one builder, callEffect): the
 * input the hop would run with (the command, the file content), the workspace, and for write/edit the diff.
 * No autonomy mode and no matching rules: this card is orchestration asking, not the agent's own mode.
 */
function holdEffect(kernel: Pick<Kernel, 'tools' | 'sandboxPolicy'>, h: Hold, call: HopGateCall): CallEffect {
  let diff: string | undefined;
  try {
    diff = kernel.tools.find(call.run.id, { wire_tool: call.wire_tool, tool: call.tool })?.preview?.(h.input, call.run.workspace);
  } catch {
    /* best effort: a preview that fails leaves the card without a diff, never fails the gate */
  }
  const at = { agent: h.agent, tool: h.tool, target: h.target, input: h.input, runner: call.runner, diff };
  return callEffect(call.run, at, kernel.sandboxPolicy(call.run).enabled);
}
