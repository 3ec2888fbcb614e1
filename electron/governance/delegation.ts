// Delegation (DESIGN §3, seed 003 "Delegation is a chain hop" and "Finishing is an evidence-gated step").
//   delegate_task { agent, task, acceptance_check: { command, timeout_s? } }: a task (stored), the recipient's
//   run on the chain; when the recipient offers a final answer the check runs as a KERNEL row (bash in the
//   recipient's workspace) and its evidence is recorded. Passed → the task completes and its answer is the
//   delegate_task result (the delegator's row stays running until then). Failed → the task stays open and
//   the check's output goes back to the recipient as a continuation; after delegation.maxRefusals refusals
//   the task fails visibly (an attention card, and a failed result with the evidence to the delegator).
//   The answer travelling back is not a hop.
import type { ExecutorTool, Run, ToolContext } from '../kernel/types.js';
import type { ToolResult } from '../../shared/types.js';
import { getAgent } from '../store/queries/agents.js';
import { bindMemberRun } from '../store/queries/chains.js';
import { placeHandoff } from './handoff.js';
import {
  addEvidence,
  addRefusal,
  closeTask,
  getTask,
  insertTask,
  listEvidence,
  listOpenTasks,
  newTaskId,
  openTaskOfRun,
  setTaskRun,
} from '../store/queries/tasks.js';
import { pendingHoldsOfRun, type Hold } from '../store/queries/holds.js';
import { APPROVAL_EXPIRED_TEXT } from '../../shared/types.js';
import { readSetting } from '../store/queries/settings.js';
import type { Governance } from './service.js';
import type { FinalizerVerdict } from './turns-port.js';
import { DELEGATE_TOOL, parseDelegateInput } from './delegate-input.js';
import { toolError } from '../kernel/results.js';
import { evidenceView, runAcceptanceCheck } from './acceptance-check.js';

type Waiter = (r: ToolResult) => void;

export class Delegation {
  /** Delegators waiting on their task's outcome, by task id. */
  private waiters = new Map<string, Waiter>();

  constructor(private readonly gov: Governance) {}

  readonly delegateTool: ExecutorTool = {
    ...DELEGATE_TOOL,
    run: (input, ctx) => this.delegate(input, ctx),
  };

  checkRecipient(ctx: ToolContext, agent: string): string | null {
    if (!ctx.run.agent) return 'Only an agent can hand work to another agent.';
    const a = getAgent(this.gov.db, agent);
    if (!a || a.status !== 'active') return `There is no active agent named "${agent}".`;
    return null;
  }

  private async delegate(input: unknown, ctx: ToolContext): Promise<ToolResult> {
    const p = parseDelegateInput(input);
    if (!p.ok) return toolError(p.message, 'invalid_input');
    const { agent, task, acceptance_check } = p.value;
    const bad = this.checkRecipient(ctx, agent);
    if (bad) return toolError(bad, 'unknown_agent');
    const from = ctx.run.agent!;
    const place = placeHandoff(this.gov, ctx, from, agent, 'delegate_task', agent);
    const id = newTaskId();
    const now = this.gov.now();
    insertTask(this.gov.db, {
      id,
      delegator: from,
      delegator_run_id: ctx.run.id,
      delegator_row_id: ctx.row.id,
      recipient: agent,
      task,
      check_command: acceptance_check.command,
      check_timeout_s: acceptance_check.timeout_s ?? null,
      chain_id: place.chain_id,
      created_at: now,
    });
    const outcome = new Promise<ToolResult>((resolve) => this.waiters.set(id, resolve));
    // NEXUS closing aborts the call too: that is not a stop. The task is settled at the next start
    // (recoverTasks), where a recipient waiting on a hold keeps waiting.
    const onAbort = () => {
      if (this.gov.kernel.isOpen) this.cancelTask(id, 'the delegating run was stopped');
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const prompt = [
        `Agent "${from}" delegated a task to you (task ${id}):`,
        task,
        `It counts as done only when this acceptance check exits 0 in your workspace: \`${acceptance_check.command}\`. When the work is done, give your final answer (no tool call); the check then runs. If it fails you will be told why.`,
      ].join('\n\n');
      const run = await this.gov
        .turns()
        .startTurn({ agent, prompt, chain: { chain_id: place.chain_id, depth: place.position.depth }, parent: { run_id: ctx.run.id, row_id: ctx.row.id } });
      bindMemberRun(this.gov.db, ctx.row.id, run.id);
      setTaskRun(this.gov.db, id, run.id, this.gov.now());
      if (ctx.signal.aborted) this.cancelTask(id, 'the delegating run was stopped');
      return await outcome;
    } catch (e) {
      this.finish(id, 'failed', null, toolError(`The task could not be handed to "${agent}": ${(e as Error).message}`, 'delegation_failed', { task_id: id }));
      return await outcome;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      this.waiters.delete(id);
    }
  }

  // ── the recipient's answer: the acceptance check ─────────────────────────────────────────────────────────

  /** Finalizer (turns.addFinalizer): runs the check of the run's open task, if it has one. */
  readonly finalizer = async (run: Run, answer: string): Promise<FinalizerVerdict> => {
    const task = openTaskOfRun(this.gov.db, run.id);
    if (!task) return undefined;
    // Waiting on a person for a held hop: the run stays running (it does not read succeeded while its task is
    // open); the hold's answer, or its expiry, continues it, and the check runs on the answer that follows.
    const held = pendingHoldsOfRun(this.gov.db, run.id);
    if (held.length) return { wait: `waiting on orchestration hold ${held[0]!.request_id} (hop ${held[0]!.hop})` };
    const ev = await runAcceptanceCheck(this.gov, task, run);
    addEvidence(this.gov.db, task.id, ev);
    // Stopped while the check ran: the evidence is kept, but a stop is not the recipient's refusal.
    if (this.gov.kernel.getRun(run.id)?.status !== 'running') return undefined;
    if (ev.passed) {
      this.finish(task.id, 'completed', answer, {
        content: [{ type: 'text', text: answer }],
        structuredContent: { task_id: task.id, status: 'completed', recipient: task.recipient, evidence: evidenceView(ev) },
      });
      return { accept: true };
    }
    const refusals = addRefusal(this.gov.db, task.id, this.gov.now());
    const max = readSetting(this.gov.db, 'delegation.maxRefusals');
    if (refusals >= max) {
      const evidence = listEvidence(this.gov.db, task.id).map(evidenceView);
      const why = `The acceptance check of task ${task.id} failed ${refusals} times (limit ${max}); the task failed.`;
      this.gov.kernel.inbox.add(
        {
          id: `attn_${task.id}`,
          kind: 'attention',
          run_id: run.id,
          agent: task.recipient,
          tool: 'delegate_task',
          target: task.task.slice(0, 200),
          data: {
            source: 'delegation',
            task_id: task.id,
            message: `${why} Last check: \`${ev.command}\` exited ${ev.exit_code ?? 'without a code'}.`,
            evidence,
          },
        },
        `Delegated task failed: ${task.recipient} (${task.id})`,
      );
      // A check that printed nothing left "Last output:" dangling, as if cut off: say so, with the exit code.
      const last = ev.output.trim()
        ? `Last output (exit ${ev.exit_code ?? 'without a code'}):\n${ev.output}`
        : `Last check: \`${ev.command}\` exited ${ev.exit_code ?? 'without a code'} with no output.`;
      this.finish(task.id, 'failed', null, toolError(`${why} ${last}`, 'task_failed', { task_id: task.id, refusals, evidence }));
      return { fail: why };
    }
    return {
      accept: false,
      feedback: `Your answer was not accepted: the acceptance check \`${ev.command}\` ${ev.exit_code === null ? 'did not finish' : `exited ${ev.exit_code}`} (refusal ${refusals} of ${max}). Its output:\n${ev.output || '(no output)'}\nFix the work, then answer again.`,
    };
  };

  /**
   * A hold of this task's run expired unanswered: the task fails visibly (an attention card) and its delegator
   * gets the failure with the expiry sentence.
   */
  holdExpired(h: Hold): void {
    const task = openTaskOfRun(this.gov.db, h.run_id);
    if (!task) return;
    const why = `Task ${task.id} failed: nobody answered orchestration hold ${h.request_id} (hop ${h.hop}: "${task.recipient}" wanted ${h.tool} on ${JSON.stringify(h.target)}) within 24 hours. ${APPROVAL_EXPIRED_TEXT}`;
    this.gov.kernel.inbox.add(
      {
        id: `attn_${task.id}`,
        kind: 'attention',
        run_id: h.run_id,
        agent: task.recipient,
        tool: 'delegate_task',
        target: task.task.slice(0, 200),
        data: { source: 'delegation', task_id: task.id, request_id: h.request_id, message: why },
      },
      `Delegated task failed: ${task.recipient} (${task.id}): its held hop expired`,
    );
    this.finish(task.id, 'failed', null, toolError(why, 'approval_expired', { task_id: task.id, request_id: h.request_id, hop: h.hop }));
  }

  /** A task's run ended without the task closing (stopped, failed): the delegator learns it. */
  onRunEnded(run: Run): void {
    const task = openTaskOfRun(this.gov.db, run.id);
    if (!task || run.status === 'running') return;
    if (run.status === 'succeeded') return; // held: the hold's answer re-opens the run (see finalizer)
    const status = run.status === 'canceled' ? 'canceled' : 'failed';
    this.finish(
      task.id,
      status,
      null,
      toolError(
        `Task ${task.id} ${status === 'canceled' ? 'was canceled' : 'failed'}: the run of "${task.recipient}" ${run.status}${run.error ? ` (${run.error})` : ''}.`,
        status === 'canceled' ? 'canceled' : 'task_failed',
        {
          task_id: task.id,
          evidence: listEvidence(this.gov.db, task.id).map(evidenceView),
        },
      ),
    );
  }

  /**
   * After a restart nobody waits on an open task any more (its delegate_task row was marked interrupted):
   * the task is canceled and the recipient's run, if it resumed, is stopped.
   */
  recoverTasks(): number {
    const open = listOpenTasks(this.gov.db);
    let n = 0;
    for (const t of open) {
      if (this.waiters.has(t.id)) continue;
      const row = this.gov.kernel.getRow(t.delegator_row_id);
      if (row && (row.state === 'running' || row.state === 'ready' || row.state === 'needs_approval')) continue;
      // Nobody waits on the task any more: its holds close with it (approving one later would set the recipient
      // to work nobody waits for), then its run stops.
      this.cancelTask(t.id, 'NEXUS stopped while it was delegated; the delegating call was interrupted', { closeHolds: true });
      n++;
    }
    return n;
  }

  private cancelTask(id: string, why: string, opts: { closeHolds?: boolean } = {}): void {
    const t = getTask(this.gov.db, id);
    if (!t || t.status !== 'open') return;
    this.finish(id, 'canceled', null, toolError(`Task ${id} was canceled: ${why}.`, 'canceled', { task_id: id }));
    if (t.run_id && opts.closeHolds) this.gov.holds.closeOfTask(t.run_id, `task ${id} was canceled (${why})`);
    if (t.run_id) {
      const r = this.gov.kernel.getRun(t.run_id);
      if (r?.status === 'running') this.gov.kernel.stopRun(t.run_id, { reason: why });
    }
  }

  private finish(id: string, status: 'completed' | 'failed' | 'canceled', answer: string | null, result: ToolResult): void {
    closeTask(this.gov.db, id, status, answer, this.gov.now());
    const w = this.waiters.get(id);
    this.waiters.delete(id);
    w?.(result);
  }
}
