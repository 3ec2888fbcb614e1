// Runs: creation (mode and compiled rules frozen), ending (stop / end / fail: every live row canceled, running
// tools killed, held cards closed), re-opening for another turn, and re-addressing an agent's held rows when
// its executor is revoked.
import { tx } from '../store/db.js';
import { insertRun, getRun, endRun as endRunRow, reopenRun as reopenRunRow } from '../store/queries/runs.js';
import { listLiveRowsOfRun, listParkedRowsAddressedTo } from '../store/queries/rows.js';
import { patchRow, transitionRow } from '../store/queries/row-updates.js';
import { resolveInboxCardsOfRow, setInboxAddressee } from '../store/queries/inbox.js';
import { outboxDecision, outboxRowEnd, outboxRunEnd } from './desk-outbox.js';
import { insertRunEvent } from '../store/queries/events.js';
import { getAgent } from '../store/queries/agents.js';
import { MODES, type RunStatus } from '../../shared/types.js';
import { KernelError, notFound } from './errors.js';
import { newId } from './ids.js';
import * as results from './results.js';
import { prepareWorkspace } from './tools/index.js';
import { defaultWorkspace } from './containment.js';
import { within } from '../sandbox/bwrap.js';
import { compileRunRules } from './run-rules.js';
import { afterEnd } from './row-endings.js';
import { LIVE, assertOpen, emit, emitInbox, type KernelState } from './kernel-state.js';
import type { CreateRunOptions, Run } from './types.js';

export function createRun(k: KernelState, opts: CreateRunOptions): Run {
  assertOpen(k);
  if (!MODES.includes(opts.mode)) throw new KernelError('invalid_input', `mode must be one of ${MODES.join(', ')}`);
  if (opts.agent !== null) {
    const agent = getAgent(k.db, opts.agent);
    if (!agent) throw notFound('agent', opts.agent);
    if (agent.status === 'removed') throw new KernelError('agent_removed', `Agent ${opts.agent} was removed.`);
  }
  const compiled = compileRunRules(opts.rules);
  const id = newId('run');
  const workspace = prepareWorkspace(opts.workspace ?? defaultWorkspace(k, opts.agent ?? id, opts.agent !== null));
  // File tools are confined to the workspace and run unsandboxed: a workspace holding the data dir would
  // hand them the database and the control socket.
  if (within(k.dataDir, workspace))
    throw new KernelError('invalid_workspace', `The workspace ${workspace} contains NEXUS's data folder ${k.dataDir}; choose a folder outside it.`);
  const now = k.clock.now();
  tx(k.db, () => {
    insertRun(k.db, {
      id,
      agent: opts.agent,
      mode: opts.mode,
      rules: compiled.rules,
      hooks: opts.hooks ?? {},
      workspace,
      prompt: opts.prompt ?? null,
      parent: opts.parent ?? null,
      chain_id: opts.chain_id ?? null,
      created_by: opts.created_by ?? null,
      now,
    });
    insertRunEvent(k.db, { run_id: id, type: 'run_created', data: { agent: opts.agent, mode: opts.mode }, now });
  });
  k.compiledByRun.set(id, compiled);
  emit(k, { type: 'runs_changed' });
  emit(k, { type: 'run_event', run_id: id, event: 'run_created', data: { agent: opts.agent } });
  return getRun(k.db, id)!;
}

/** Re-open an ended run for another turn (turns' continueRun). */
export function reopenRun(k: KernelState, run_id: string): Run {
  assertOpen(k);
  const run = getRun(k.db, run_id);
  if (!run) throw notFound('run', run_id);
  if (run.agent && k.removedAgents.has(run.agent)) throw new KernelError('agent_removed', `Agent ${run.agent} was removed.`);
  const now = k.clock.now();
  if (reopenRunRow(k.db, { id: run_id, now })) {
    insertRunEvent(k.db, { run_id, type: 'run_reopened', now });
    k.runAborts.delete(run_id);
    emit(k, { type: 'runs_changed' });
    emit(k, { type: 'run_event', run_id, event: 'run_reopened' });
  }
  return getRun(k.db, run_id)!;
}

/** End a run with `status`: its live rows canceled in the same transaction, then tools killed and waiters woken. */
export function terminateRun(
  k: KernelState,
  run_id: string,
  status: Exclude<RunStatus, 'running'>,
  o: { error: string | null; final_answer?: string | null; rowWhy: string; event: string },
): Run {
  const run = getRun(k.db, run_id);
  if (!run) throw notFound('run', run_id);
  const now = k.clock.now();
  const live = listLiveRowsOfRun(k.db, run_id);
  const canceled: string[] = [];
  const closedCards: string[] = [];
  let ended = false;
  tx(k.db, () => {
    ended = endRunRow(k.db, { id: run_id, status, final_answer: o.final_answer ?? null, error: o.error, now });
    for (const row of live) {
      if (
        transitionRow(k.db, row.id, LIVE, 'canceled', { error: { code: 'canceled', detail: o.rowWhy }, result: results.canceled(o.rowWhy), ended_at: now }, now)
      ) {
        canceled.push(row.id);
        closedCards.push(...resolveInboxCardsOfRow(k.db, { row_id: row.id, status: 'canceled', now }));
        if (row.state === 'needs_approval') outboxDecision(k, row.id, 'canceled', null, now);
        outboxRowEnd(k, row, 'canceled', 'canceled', now);
      }
    }
    if (ended) outboxRunEnd(k, run_id, status, o.error, now);
    if (ended || canceled.length) insertRunEvent(k.db, { run_id, type: o.event, data: { status, error: o.error, canceled_rows: canceled }, now });
  });
  // Already ended and nothing live: nothing to do, nothing to announce (stop is idempotent).
  if (!ended && !canceled.length) return getRun(k.db, run_id)!;
  // After the durable record: kill running tools, wake waiters, tell everyone.
  k.runAborts.get(run_id)?.abort();
  k.runAborts.delete(run_id);
  k.compiledByRun.delete(run_id);
  for (const id of canceled) afterEnd(k, id);
  emit(k, { type: 'run_event', run_id, event: o.event, data: { status, canceled_rows: canceled.length } });
  emit(k, { type: 'runs_changed' });
  if (closedCards.length) emitInbox(k, { removed: closedCards.map((id) => ({ id, status: 'canceled' })) });
  return getRun(k.db, run_id)!;
}

/** The agent's held rows lose their addressee (task_readdressed); the person's door still answers them. */
export function readdressRows(k: KernelState, agent: string): number {
  const from = `executor:${agent}`;
  const rows = listParkedRowsAddressedTo(k.db, from);
  const now = k.clock.now();
  const detail = `executor of ${agent} revoked; the person's door still answers`;
  tx(k.db, () => {
    for (const row of rows) {
      patchRow(k.db, row.id, { addressee: null }, now);
      setInboxAddressee(k.db, { row_id: row.id, addressee: null });
      insertRunEvent(k.db, { run_id: row.run_id, type: 'task_readdressed', data: { row_id: row.id, from, to: null, detail }, now });
    }
  });
  for (const row of rows) emit(k, { type: 'run_event', run_id: row.run_id, event: 'task_readdressed', data: { row_id: row.id, from, to: null, detail } });
  if (rows.length) emitInbox(k);
  return rows.length;
}
