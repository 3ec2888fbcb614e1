// The submit path (DESIGN §2, §7; seed 000):
//
//   submitRows → each row inserted at `ready` (durable) → [model rows: the hop gate] → the stage: ONE verdict
//   (shared/stage-verdict.ts: the rules on the run's frozen mode and the row's origin, then escape, runnable,
//   trust) → grant: recorded `running`, THEN executed
//          → park: parking.ts, in the same transaction
//          → refuse: `approval_denied` (or the code running it would give), never executed.
//   Fail closed: an exception in the gate or the stage refuses the row (`approval_error`); it is never executed.
import { tx } from '../store/db.js';
import { getRun } from '../store/queries/runs.js';
import { insertRow, getRow, insertedRow, maxSeq } from '../store/queries/rows.js';
import { transitionRow, patchedRow, patchRow, type RowPatch } from '../store/queries/row-updates.js';
import { compileRules, evaluateResolved, type CompiledRules } from '../../shared/rules/index.js';
import { resolveInput, resolveToolName } from '../../shared/rules/tool-names.js';
import { ORIGINS } from '../../shared/types.js';
import { KernelError, notFound } from './errors.js';
import { newId } from './ids.js';
import * as results from './results.js';
import { parkRow } from './parking.js';
import { endRow } from './row-endings.js';
import { checkResult, executeRow } from './tool-execution.js';
import { isClientRun } from './client-runs.js';
import { PROCEED, assertOpen, emitRow, type After, type KernelState } from './kernel-state.js';
import type { Row, RowGrantedBy, Run, SubmitRowOptions } from './types.js';
import { errorMessage } from '../../shared/errors.js';
import { trustCovering } from '../../shared/trust.js';
import { stageVerdict } from '../../shared/stage-verdict.js';
import { log } from '../log.js';

/**
 * A round's fan: every call recorded and decided in ONE transaction (one commit for the fan), then the granted
 * ones start. Each row still crosses the gate and the stage on its own, and an exception deciding one row
 * refuses that row only (approval_error), never the others and never by running it.
 */
export function submitRows(k: KernelState, run_id: string, calls: readonly SubmitRowOptions[]): Row[] {
  assertOpen(k);
  const run = getRun(k.db, run_id);
  if (!run) throw notFound('run', run_id);
  if (run.status !== 'running') throw new KernelError('run_ended', `Run ${run_id} is ${run.status}; it takes no more rows.`);
  const prepared = calls.map((opts) => {
    if (!ORIGINS.includes(opts.origin)) throw new KernelError('invalid_input', `origin must be one of ${ORIGINS.join(', ')}`);
    if (typeof opts.tool !== 'string' || opts.tool.length === 0) throw new KernelError('invalid_input', 'a row needs a tool name');
    const on_failure = opts.on_failure ?? 'continue';
    if (on_failure !== 'continue' && on_failure !== 'fail_run') throw new KernelError('invalid_input', 'on_failure must be continue or fail_run');
    // The input is normalized through JSON once: what the rules read, what is recorded and what runs are the
    // same value (no undefined, no Dates, no later mutation by the caller).
    let raw: unknown;
    try {
      const text = JSON.stringify(opts.input ?? {});
      if (text === undefined) throw new Error('not JSON');
      raw = JSON.parse(text);
    } catch (e) {
      throw new KernelError('invalid_input', `a row's input must be JSON: ${errorMessage(e)}`);
    }
    const resolved = resolveToolName(opts.tool);
    return { opts, on_failure, resolved, input: resolveInput(resolved, raw) };
  });
  const after: After = [];
  const rows = tx(k.db, () =>
    prepared.map((c) => {
      const rec = {
        id: newId('row'),
        run_id,
        origin: c.opts.origin,
        wire_tool: c.opts.tool,
        tool: c.resolved.name,
        runner: c.resolved.runner,
        input: c.input,
        round: c.opts.round ?? null,
        on_failure: c.on_failure,
        now: k.clock.now(),
      };
      if (c.opts.stop_hook) k.stopHookRows.add(rec.id);
      return cross(k, run, insertedRow(rec, insertRow(k.db, rec, nextSeq(k, run_id))), after, c.opts.park_ms, c.opts.escape);
    }),
  );
  // Committed: the decisions are durable. Now their effects (execution, timers, events).
  for (const f of after) f();
  return rows;
}

/** The next row number of a run. This process is the only writer, so it is counted in memory after one read. */
function nextSeq(k: KernelState, run_id: string): number {
  const seq = (k.seqs.get(run_id) ?? maxSeq(k.db, run_id)) + 1;
  k.seqs.set(run_id, seq);
  return seq;
}

/** The gate and the stage for one recorded row. Writes now (inside the caller's transaction); effects to `after`. */
function cross(k: KernelState, run: Run, row: Row, after: After, parkMs?: number, escape?: string): Row {
  const mine: After = [];
  const hop: HopNumber = { n: undefined, kept: false };
  try {
    // Only multi-write steps (a custom gate, a park) run in savepoints: if one throws, its partial writes roll
    // back (not the fan's) and the row is refused below. A grant or a denial is one guarded UPDATE.
    const decided = decide(k, run, row, mine, after, hop, parkMs, escape);
    keepHop(k, row, hop);
    after.push(...mine);
    return decided;
  } catch (e) {
    // Fail closed: whatever went wrong, the call is refused and never executed.
    keepHop(k, row, hop);
    const detail = errorMessage(e);
    const ended = endRow(
      k,
      row,
      ['ready'],
      'failed',
      { error: { code: 'approval_error', detail }, result: results.stageError(detail) },
      'approval_error',
      after,
    );
    return ended ?? getRow(k.db, row.id) ?? row;
  }
}

/**
 * The hop number the gate gave this row (a governed hop), kept on the row in the transaction that decides it: in
 * the grant's own UPDATE (the common hop writes nothing more), else once the row's decision is made.
 */
interface HopNumber {
  n: number | undefined;
  kept: boolean;
}

function keepHop(k: KernelState, row: Row, hop: HopNumber): void {
  if (hop.n === undefined || hop.kept) return;
  hop.kept = true;
  patchRow(k.db, row.id, { hop: hop.n }, k.clock.now());
}

/** `committed`: effects of writes already kept whatever this row's decision becomes (the gate's savepoint is released). */
function decide(k: KernelState, run: Run, row: Row, after: After, committed: After, hop: HopNumber, parkMs?: number, escape?: string): Row {
  let hopApprovedBy: string | undefined;
  if (row.origin === 'model') {
    const call = { run, row_id: row.id, wire_tool: row.wire_tool, tool: row.tool, runner: row.runner, input: row.input, origin: row.origin };
    const d = k.hopGate === PROCEED ? PROCEED(call) : tx(k.db, () => k.hopGate(call));
    if (!d || typeof d !== 'object' || typeof (d as unknown as PromiseLike<unknown>).then === 'function')
      throw new Error('the hop gate gave no synchronous decision');
    // The gate's effects (cards, events) wait for the commit that makes its writes durable. One that throws
    // must not keep the rows after it from starting.
    const gateAfter = d.after;
    if (typeof gateAfter === 'function') committed.push(() => guarded(gateAfter));
    if (d.hop !== undefined) {
      if (!Number.isSafeInteger(d.hop) || d.hop < 1) throw new Error('the hop gate gave a hop number that is not a positive integer');
      hop.n = d.hop;
    }
    if (d.proceed === false) {
      const result = checkResult(d.result);
      const sc = result.structuredContent;
      const code = sc && typeof sc.code === 'string' ? sc.code : 'hop_denied';
      const ended = endRow(
        k,
        row,
        ['ready'],
        'failed',
        {
          error: {
            code,
            detail: result.content
              .map((c) => c.text)
              .join('\n')
              .slice(0, 1024),
          },
          result,
        },
        'hop_not_performed',
        after,
      );
      return ended ?? getRow(k.db, row.id)!;
    }
    if (d.proceed !== true) throw new Error('the hop gate decision is neither proceed: true nor proceed: false');
    hopApprovedBy = typeof d.approved_by === 'string' ? d.approved_by : undefined;
  }
  // The name and input were resolved once, when the row was recorded: the rules read what is recorded and runs.
  const evaluation = evaluateResolved(compiledFor(k, run), run.mode, { tool: { name: row.tool, runner: row.runner }, input: row.input, origin: row.origin });
  if (!evaluation || typeof evaluation.tool !== 'string' || !Array.isArray(evaluation.matched)) throw new Error('the stage returned no decision');
  const verdict = stageVerdict(evaluation, {
    escape,
    unrunnable: () => cannotRun(k, run, row),
    trusted: () => trustCovering(k.trust, run.agent, row.wire_tool, row.input) !== undefined,
  });
  switch (verdict.act) {
    case 'grant':
      return grant(k, run, row, verdict.granted_by, verdict.tool, verdict.matched, after, hopApprovedBy, hop);
    case 'park':
      return parkRow(k, run, row, verdict.tool, verdict.matched, after, parkMs, verdict.escape);
    case 'refuse': {
      const result = verdict.by === 'rules' ? results.deniedByStage(verdict.detail) : results.toolError(verdict.detail, verdict.code);
      const fields = { tool: verdict.tool, matched: verdict.matched, error: { code: verdict.code, detail: verdict.detail }, result };
      return endRow(k, row, ['ready'], 'failed', fields, undefined, after) ?? getRow(k.db, row.id)!;
    }
    default:
      throw new Error(`the stage returned an unknown verdict ${JSON.stringify((verdict as { act: unknown }).act)}`);
  }
}

function guarded(effect: () => void): void {
  try {
    effect();
  } catch (e) {
    log.error('an effect of the hop gate failed', e);
  }
}

/** Why a row could never run in this run (the same code and sentence execution would give), or null. */
function cannotRun(k: KernelState, run: Run, row: Row): { code: string; text: string } | null {
  // A connected client runs its own tools (MCP, WebFetch, …): NEXUS's registry does not say what it can run.
  if (isClientRun(run))
    return k.clientExecutor ? null : { code: 'no_client_executor', text: 'This call belongs to a connected client, and no client executor is installed.' };
  const tool = k.tools.find(run.id, row);
  if (!tool) return { code: 'unknown_tool', text: `No tool named ${row.tool} is available to this run.` };
  if (tool.kernelOnly && row.origin !== 'kernel') return { code: 'kernel_only', text: `${row.tool} is planted by the kernel; a model cannot call it.` };
  return null;
}

function grant(
  k: KernelState,
  run: Run,
  row: Row,
  by: RowGrantedBy,
  tool: string,
  matched: number[],
  after: After,
  hopApprovedBy: string | undefined,
  hop: HopNumber,
): Row {
  const now = k.clock.now();
  const patch: RowPatch = { granted_by: by, tool, matched, started_at: now, ...(hopApprovedBy ? { approved_by: hopApprovedBy } : {}) };
  if (hop.n !== undefined) patch.hop = hop.n;
  if (!transitionRow(k.db, row.id, ['ready'], 'running', patch, now)) return getRow(k.db, row.id)!;
  hop.kept = true;
  const running = patchedRow(row, 'running', patch, now);
  after.push(() => {
    emitRow(k, running);
    executeRow(k, run, running);
  });
  return running;
}

/** The run's compiled rules: compiled at creation, or once from the stored JSON after a restart. */
function compiledFor(k: KernelState, run: Run): CompiledRules {
  let c = k.compiledByRun.get(run.id);
  if (!c) {
    c = compileRules(run.rules);
    k.compiledByRun.set(run.id, c);
  }
  return c;
}
