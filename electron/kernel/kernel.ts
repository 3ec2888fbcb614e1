// The kernel: runs, rows and the approval stage every row crosses (DESIGN §2, §7; seed 000).
//
//   submitRow → row inserted at `ready` (durable) → [model rows: the hop gate] → the stage (evaluateCall on the
//   run's frozen mode + compiled rules, the row's origin) → granted: recorded `running`, THEN executed
//                                                          → parked: `needs_approval` + effect profile + 24 h
//                                                            deadline + autonomy card, all in one transaction
//                                                          → failed: `approval_denied`, never executed.
//   A parked row ends by approve (recorded `running` before it runs), deny, the clock (`timed_out`,
//   `approval_expired`), or a stop (`canceled`). Every state change is a guarded UPDATE, so concurrent enders
//   resolve to exactly one winner. Fail closed: an exception in the gate or the stage refuses the row
//   (`approval_error`); it is never executed.
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import type { Db } from '../store/db.js';
import { tx } from '../store/db.js';
import { insertRun, getRun, endRun as endRunRow, reopenRun as reopenRunRow, touchRun } from '../store/queries/runs.js';
import {
  insertRow,
  getRow,
  listRowsOfRun,
  listRowsInState,
  listLiveRowsOfRun,
  transitionRow,
  patchRow,
  patchedRow,
  insertedRow,
  maxSeq,
  listParkedRowsAddressedTo,
  type RowPatch,
} from '../store/queries/rows.js';
import { insertInboxItem, resolveInboxForRow, setInboxAddressee, countPendingInbox } from '../store/queries/inbox.js';
import { insertRunEvent } from '../store/queries/events.js';
import { getAgent, listAgents } from '../store/queries/agents.js';
import { compileRules, evaluateCall, validateRules, type CompiledRules } from '../../shared/rules/index.js';
import { resolveInput, resolveToolName } from '../../shared/rules/tool-names.js';
import { MODES, ORIGINS, PARK_DURATION_MS, TERMINAL_ROW_STATES, type RowState, type RunStatus, type ToolResult } from '../../shared/types.js';
import type { NexusEvent } from '../../shared/api/index.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { EventBus } from './events.js';
import { KernelError, conflict, notFound } from './errors.js';
import { newId } from './ids.js';
import * as results from './results.js';
import { buildEffect } from './effect.js';
import { ToolRegistry } from './registry.js';
import { InboxKinds } from './inbox.js';
import { BUILTIN_TOOLS, prepareWorkspace } from './tools/index.js';
import type { CreateRunOptions, ExecutorTool, HopGate, Row, RowGrantedBy, Run, SubmitRowOptions } from './types.js';

export interface KernelOptions {
  db: Db;
  /** Where default workspaces live (<dataDir>/workspaces/<agent or run id>). */
  dataDir: string;
  clock?: Clock;
  events?: EventBus;
}

export interface RecoveryReport {
  interrupted: string[];
  expired: string[];
  parked: string[];
}

/** Effects to run once the transaction that decided them has committed. */
type After = Array<() => void>;
/** The default hop gate: every hop proceeds (GOVERNANCE installs the real one). */
const PROCEED: HopGate = () => ({ proceed: true });
type Waiter = { resolve: (row: Row) => void; reject: (e: Error) => void };
const LIVE: readonly RowState[] = ['ready', 'needs_approval', 'running'];
const isTerminal = (s: RowState) => TERMINAL_ROW_STATES.includes(s);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class Kernel {
  readonly db: Db;
  readonly clock: Clock;
  readonly events: EventBus;
  readonly dataDir: string;
  /** Tools: built-ins, plus what runners and governance register (global or per run). */
  readonly tools = new ToolRegistry();
  /** Inbox kinds other than autonomy (orchestration holds, attention items, questions) plug in here. */
  readonly inbox: InboxKinds;

  private compiledByRun = new Map<string, CompiledRules>();
  private waiters = new Map<string, Waiter[]>();
  private parkTimers = new Map<string, TimerHandle>();
  private inFlight = new Map<string, { run_id: string; done: Promise<void> }>();
  /** Rows this process knows are running or parked (cleared when they end): waitRow skips the read. */
  private live = new Set<string>();
  private seqs = new Map<string, number>();
  private pendingEnds: Array<{ row: Row; to: RowState; patch: RowPatch }> = [];
  private runAborts = new Map<string, AbortController>();
  /** "Trust for this session": agents whose own autonomy parks are granted until this process ends. */
  private trusted = new Set<string>();
  private removedAgents = new Set<string>();
  private hopGate: HopGate = PROCEED;
  private state: 'new' | 'started' | 'closing' | 'closed' = 'new';

  constructor(opts: KernelOptions) {
    this.db = opts.db;
    this.dataDir = opts.dataDir;
    this.clock = opts.clock ?? systemClock;
    this.events = opts.events ?? new EventBus();
    this.inbox = new InboxKinds(this);
    for (const t of BUILTIN_TOOLS) this.tools.register(t);
    for (const a of listAgents(this.db)) if (a.status === 'removed') this.removedAgents.add(a.name);
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Crash recovery, then ready for work. Rows that were running (or never decided) when the process died are
   * marked interrupted and never re-run; parked rows keep their deadline; what expired while closed expires now.
   * Call after every module registered its listeners and tools (createNexus does).
   */
  start(): RecoveryReport {
    if (this.state !== 'new') throw new Error('kernel already started');
    this.state = 'started';
    const report: RecoveryReport = { interrupted: [], expired: [], parked: [] };
    for (const state of ['running', 'ready'] as const) {
      for (const row of listRowsInState(this.db, state)) {
        if (this.endRow(row, [state], 'failed', { error: { code: 'interrupted', detail: 'NEXUS stopped while this call was in flight; not re-run' }, result: results.interrupted() }, 'row_interrupted'))
          report.interrupted.push(row.id);
      }
    }
    const now = this.clock.now();
    for (const row of listRowsInState(this.db, 'needs_approval')) {
      const due = row.expires_at ? Date.parse(row.expires_at) : now;
      if (due <= now) {
        this.expire(row.id);
        report.expired.push(row.id);
      } else {
        this.armPark(row.id, due - now);
        report.parked.push(row.id);
      }
    }
    return report;
  }

  /** Stop everything this process runs: timers cleared, tools aborted (their rows marked interrupted). Parks stay. */
  async close(): Promise<void> {
    if (this.state === 'closing' || this.state === 'closed') return;
    this.state = 'closing';
    for (const h of this.parkTimers.values()) this.clock.clearTimeout(h);
    this.parkTimers.clear();
    this.flushEnds();
    const pending = [...this.inFlight.entries()];
    for (const [rowId] of pending) {
      const row = getRow(this.db, rowId);
      if (row) this.endRow(row, ['running'], 'failed', { error: { code: 'interrupted', detail: 'NEXUS closed while this call was running' }, result: results.interrupted() }, 'row_interrupted');
    }
    for (const c of this.runAborts.values()) c.abort();
    const settle = Promise.allSettled(pending.map(([, f]) => f.done));
    await Promise.race([settle, new Promise((r) => setTimeout(r, 3000).unref())]);
    for (const list of this.waiters.values()) for (const w of list) w.reject(new KernelError('closed', 'the kernel closed'));
    this.waiters.clear();
    this.state = 'closed';
  }

  get isOpen(): boolean {
    return this.state === 'new' || this.state === 'started';
  }

  // ── hooks other modules install ──────────────────────────────────────────────────────────────────────────

  /** GOVERNANCE: the orchestration gate, called for every model row before the stage. Must be synchronous. */
  setHopGate(gate: HopGate): void {
    this.hopGate = gate;
  }
  registerTool(tool: ExecutorTool, opts: { replace?: boolean } = {}): void {
    this.tools.register(tool, opts);
  }
  /** Subscribe to every event (NexusEvent); returns the unsubscribe function. */
  on(listener: (e: NexusEvent) => void): () => void {
    return this.events.on(listener);
  }

  // ── runs ─────────────────────────────────────────────────────────────────────────────────────────────────

  createRun(opts: CreateRunOptions): Run {
    this.assertOpen();
    if (!MODES.includes(opts.mode)) throw new KernelError('invalid_input', `mode must be one of ${MODES.join(', ')}`);
    if (opts.agent !== null) {
      const agent = getAgent(this.db, opts.agent);
      if (!agent) throw notFound('agent', opts.agent);
      if (agent.status === 'removed') throw new KernelError('agent_removed', `Agent ${opts.agent} was removed.`);
    }
    const compiled = this.compileFor(opts.rules);
    const id = newId('run');
    const workspace = prepareWorkspace(opts.workspace ?? join(this.dataDir, 'workspaces', opts.agent ?? id));
    const now = this.clock.now();
    tx(this.db, () => {
      insertRun(this.db, {
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
      insertRunEvent(this.db, { run_id: id, type: 'run_created', data: { agent: opts.agent, mode: opts.mode }, now });
    });
    this.compiledByRun.set(id, compiled);
    this.emit({ type: 'runs_changed' });
    this.emit({ type: 'run_event', run_id: id, event: 'run_created', data: { agent: opts.agent } });
    return getRun(this.db, id)!;
  }

  getRun(id: string): Run | null {
    return getRun(this.db, id);
  }
  getRow(id: string): Row | null {
    return getRow(this.db, id);
  }
  listRows(run_id: string): Row[] {
    return listRowsOfRun(this.db, run_id);
  }

  /** Aborted when the run is stopped or ends: turns pass it to model calls, tools get it as ctx.signal. */
  runSignal(run_id: string): AbortSignal {
    return this.runAbort(run_id).signal;
  }

  /** Force-stop: every live row canceled (running tools killed), held cards closed, nothing asked. */
  stopRun(run_id: string, opts: { reason?: string } = {}): Run {
    return this.terminate(run_id, 'canceled', { error: opts.reason ?? 'stopped', rowWhy: opts.reason ?? 'the run was stopped', event: 'run_stopped' });
  }

  /** End a turn (turns call this): its remaining live rows, if any, are canceled. */
  endRun(run_id: string, opts: { status: Exclude<RunStatus, 'running'>; final_answer?: string | null; error?: string | null }): Run {
    return this.terminate(run_id, opts.status, { error: opts.error ?? null, final_answer: opts.final_answer ?? null, rowWhy: 'the run ended', event: 'run_ended' });
  }

  /** Re-open an ended run for another turn (turns' continueRun). */
  reopenRun(run_id: string): Run {
    this.assertOpen();
    const run = getRun(this.db, run_id);
    if (!run) throw notFound('run', run_id);
    if (run.agent && this.removedAgents.has(run.agent)) throw new KernelError('agent_removed', `Agent ${run.agent} was removed.`);
    const now = this.clock.now();
    if (reopenRunRow(this.db, { id: run_id, now })) {
      insertRunEvent(this.db, { run_id, type: 'run_reopened', now });
      this.runAborts.delete(run_id);
      this.emit({ type: 'runs_changed' });
      this.emit({ type: 'run_event', run_id, event: 'run_reopened' });
    }
    return getRun(this.db, run_id)!;
  }

  // ── rows ─────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * One tool call: recorded at `ready`, then across the hop gate (model rows) and the stage. Returns the row as
   * the stage left it: `running` (granted; executing), `needs_approval` (parked) or `failed` (refused).
   */
  submitRow(run_id: string, opts: SubmitRowOptions): Row {
    return this.submitRows(run_id, [opts])[0];
  }

  /**
   * A round's fan: every call recorded and decided in ONE transaction (one commit for the fan), then the granted
   * ones start. Each row still crosses the gate and the stage on its own, and an exception deciding one row
   * refuses that row only (approval_error), never the others and never by running it.
   */
  submitRows(run_id: string, calls: readonly SubmitRowOptions[]): Row[] {
    this.assertOpen();
    const run = getRun(this.db, run_id);
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
        throw new KernelError('invalid_input', `a row's input must be JSON: ${message(e)}`);
      }
      const resolved = resolveToolName(opts.tool);
      return { opts, raw, on_failure, resolved, input: resolveInput(resolved, raw) };
    });
    const after: After = [];
    const rows = tx(this.db, () =>
      prepared.map((c) => {
        const rec = { id: newId('row'), run_id, origin: c.opts.origin, wire_tool: c.opts.tool, tool: c.resolved.name, runner: c.resolved.runner, input: c.input, round: c.opts.round ?? null, on_failure: c.on_failure, now: this.clock.now() };
        return this.cross(run, insertedRow(rec, insertRow(this.db, rec, this.nextSeq(run_id))), c.raw, after);
      }),
    );
    // Committed: the decisions are durable. Now their effects (execution, timers, events).
    for (const f of after) f();
    return rows;
  }

  /** The next row number of a run. This process is the only writer, so it is counted in memory after one read. */
  private nextSeq(run_id: string): number {
    const seq = (this.seqs.get(run_id) ?? maxSeq(this.db, run_id)) + 1;
    this.seqs.set(run_id, seq);
    return seq;
  }

  /**
   * Resolves with the row once it is terminal (succeeded, failed, timed_out, canceled). With `signal`, an
   * abort stops waiting: the promise resolves with the row as it is then (a door's wait timed out).
   */
  waitRow(row_id: string, opts: { signal?: AbortSignal } = {}): Promise<Row> {
    // A row this process is running or holding is live for sure: no need to read it.
    if (!this.live.has(row_id)) {
      const row = getRow(this.db, row_id);
      if (!row) return Promise.reject(notFound('row', row_id));
      if (isTerminal(row.state)) return Promise.resolve(row);
    }
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(row_id) ?? [];
      const waiter: Waiter = { resolve, reject };
      list.push(waiter);
      this.waiters.set(row_id, list);
      opts.signal?.addEventListener(
        'abort',
        () => {
          const current = this.waiters.get(row_id);
          if (!current || !current.includes(waiter)) return;
          current.splice(current.indexOf(waiter), 1);
          if (!current.length) this.waiters.delete(row_id);
          const row = getRow(this.db, row_id);
          if (row) resolve(row);
          else reject(notFound('row', row_id));
        },
        { once: true },
      );
    });
  }

  /** Approve a parked row: recorded `running` (granted_by person) before it runs. */
  approve(row_id: string, opts: { by: string; trust_session?: boolean }): Row {
    this.assertOpen();
    const row = this.parkedRow(row_id);
    const run = getRun(this.db, row.run_id)!;
    const now = this.clock.now();
    const won = tx(this.db, () => {
      if (!transitionRow(this.db, row_id, ['needs_approval'], 'running', { granted_by: 'person', approved_by: opts.by, started_at: now }, now)) return false;
      resolveInboxForRow(this.db, { row_id, status: 'approved', by: opts.by, now });
      insertRunEvent(this.db, { run_id: run.id, type: 'approval_granted', data: { row_id, by: opts.by, trust_session: !!opts.trust_session }, now });
      return true;
    });
    if (!won) throw conflict(`Row ${row_id} is no longer waiting for approval.`);
    this.disarmPark(row_id);
    if (opts.trust_session && run.agent) this.trusted.add(run.agent);
    const running = getRow(this.db, row_id)!;
    this.emitRow(running, { by: opts.by });
    this.emitInbox();
    this.execute(run, running);
    return running;
  }

  /** Deny a parked row: failed approval_denied, the reason as error.detail. */
  deny(row_id: string, opts: { by: string; reason?: string }): Row {
    this.assertOpen();
    const row = this.parkedRow(row_id);
    const reason = opts.reason?.trim() ? opts.reason.trim() : undefined;
    const ended = this.endParked(row, 'failed', { error: { code: 'approval_denied', detail: reason ?? 'Denied by a person.' }, result: results.deniedByPerson(reason) }, 'denied', opts.by, 'approval_denied');
    if (!ended) throw conflict(`Row ${row_id} is no longer waiting for approval.`);
    return ended;
  }

  /** The park clock ran out: timed_out approval_expired; the next round reads exactly APPROVAL_EXPIRED_TEXT. */
  expire(row_id: string): Row | null {
    const row = getRow(this.db, row_id);
    if (!row || row.state !== 'needs_approval') return null;
    return this.endParked(row, 'timed_out', { error: { code: 'approval_expired', detail: results.expired().content[0].text }, result: results.expired() }, 'expired', null, 'approval_expired');
  }

  /** Session trust (in memory only: it ends with this process). */
  isTrusted(agent: string): boolean {
    return this.trusted.has(agent);
  }

  // ── agents: executor revocation, removal ─────────────────────────────────────────────────────────────────

  /** The agent's held rows lose their addressee (task_readdressed); the person's door still answers them. */
  readdressRows(agent: string): number {
    const from = `executor:${agent}`;
    const rows = listParkedRowsAddressedTo(this.db, from);
    const now = this.clock.now();
    tx(this.db, () => {
      for (const row of rows) {
        patchRow(this.db, row.id, { addressee: null }, now);
        setInboxAddressee(this.db, { row_id: row.id, addressee: null });
        insertRunEvent(this.db, { run_id: row.run_id, type: 'task_readdressed', data: { row_id: row.id, from, to: null, detail: `executor of ${agent} revoked; the person's door still answers` }, now });
      }
    });
    for (const row of rows) this.emit({ type: 'run_event', run_id: row.run_id, event: 'task_readdressed', data: { row_id: row.id, from, to: null } });
    if (rows.length) this.emitInbox();
    return rows.length;
  }

  /** Bookkeeping when an agent is removed (kernel/agents.ts does the store part): no trust, no new runs. */
  agentRemoved(agent: string): void {
    this.removedAgents.add(agent);
    this.trusted.delete(agent);
  }
  agentSaved(agent: string): void {
    this.removedAgents.delete(agent);
  }

  // ── counters for status ──────────────────────────────────────────────────────────────────────────────────

  pendingCount(): number {
    return countPendingInbox(this.db);
  }

  /** Announce a change of the inbox (modules that add or close cards of their own call this). */
  emitInbox(): void {
    this.emit({ type: 'inbox_changed', pending: countPendingInbox(this.db) });
  }

  emit(event: NexusEvent): void {
    this.events.emit(event);
  }

  // ── the stage ────────────────────────────────────────────────────────────────────────────────────────────

  /** The gate and the stage for one recorded row. Writes now (inside the caller's transaction); effects to `after`. */
  private cross(run: Run, row: Row, rawInput: unknown, after: After): Row {
    const mine: After = [];
    try {
      // Only multi-write steps (a custom gate, a park) run in savepoints: if one throws, its partial writes roll
      // back (not the fan's) and the row is refused below. A grant or a denial is one guarded UPDATE.
      const decided = this.decide(run, row, rawInput, mine);
      after.push(...mine);
      return decided;
    } catch (e) {
      // Fail closed: whatever went wrong, the call is refused and never executed.
      const detail = message(e);
      const ended = this.endRow(row, ['ready'], 'failed', { error: { code: 'approval_error', detail }, result: results.stageError(detail) }, 'approval_error', after);
      return ended ?? getRow(this.db, row.id) ?? row;
    }
  }

  private decide(run: Run, row: Row, rawInput: unknown, after: After): Row {
    if (row.origin === 'model') {
      const call = { run, row_id: row.id, wire_tool: row.wire_tool, tool: row.tool, runner: row.runner, input: row.input, origin: row.origin };
      const d = this.hopGate === PROCEED ? PROCEED(call) : tx(this.db, () => this.hopGate(call));
      if (!d || typeof d !== 'object' || typeof (d as unknown as PromiseLike<unknown>).then === 'function') throw new Error('the hop gate gave no synchronous decision');
      if (d.proceed === false) {
        const result = checkResult(d.result);
        const sc = result.structuredContent;
        const code = sc && typeof sc.code === 'string' ? sc.code : 'hop_denied';
        const ended = this.endRow(row, ['ready'], 'failed', { error: { code, detail: result.content.map((c) => c.text).join('\n').slice(0, 1024) }, result }, 'hop_not_performed', after);
        return ended ?? getRow(this.db, row.id)!;
      }
      if (d.proceed !== true) throw new Error('the hop gate decision is neither proceed: true nor proceed: false');
    }
    const decision = evaluateCall(this.compiledFor(run), run.mode, { tool: row.wire_tool, input: rawInput, origin: row.origin });
    if (!decision || typeof decision.tool !== 'string' || !Array.isArray(decision.matched)) throw new Error('the stage returned no decision');
    switch (decision.outcome) {
      case 'granted':
        return this.grant(run, row, decision.granted_by, decision.tool, decision.matched, after);
      case 'failed': {
        const detail = decision.error.detail;
        const ended = this.endRow(row, ['ready'], 'failed', { tool: decision.tool, matched: decision.matched, error: { code: 'approval_denied', detail }, result: results.deniedByStage(detail) }, undefined, after);
        return ended ?? getRow(this.db, row.id)!;
      }
      case 'parked':
        // Session trust relaxes this agent's OWN autonomy parks; deny rules were already applied above.
        if (run.agent && this.trusted.has(run.agent)) return this.grant(run, row, 'trust', decision.tool, decision.matched, after);
        return this.park(run, row, decision.tool, decision.matched, after);
      default:
        throw new Error(`the stage returned an unknown outcome ${JSON.stringify((decision as { outcome: unknown }).outcome)}`);
    }
  }

  private grant(run: Run, row: Row, by: RowGrantedBy, tool: string, matched: number[], after: After): Row {
    const now = this.clock.now();
    const patch: RowPatch = { granted_by: by, tool, matched, started_at: now };
    if (!transitionRow(this.db, row.id, ['ready'], 'running', patch, now)) return getRow(this.db, row.id)!;
    const running = patchedRow(row, 'running', patch, now);
    after.push(() => {
      this.emitRow(running);
      this.execute(run, running);
    });
    return running;
  }

  private park(run: Run, row: Row, tool: string, matched: number[], after: After): Row {
    const effect = buildEffect(run, row, this.tools.find(run.id, row), tool, matched);
    const revoked = run.agent ? getAgent(this.db, run.agent)?.executor_revoked === true : false;
    const addressee = run.agent && !revoked ? `executor:${run.agent}` : null;
    const now = this.clock.now();
    const expires = now + PARK_DURATION_MS;
    const patch: RowPatch = { tool, matched, addressee, effect, expires_at: expires };
    tx(this.db, () => {
      if (!transitionRow(this.db, row.id, ['ready'], 'needs_approval', patch, now)) throw new Error('the row changed while it was being parked');
      insertInboxItem(this.db, {
        id: row.id,
        kind: 'autonomy',
        run_id: run.id,
        row_id: row.id,
        agent: run.agent,
        tool,
        target: effect.target,
        addressee,
        expires_at: expires,
        data: { effect, trustable: run.agent !== null, origin: row.origin },
        now,
      });
      insertRunEvent(this.db, { run_id: run.id, type: 'approval_required', data: { row_id: row.id, tool, target: effect.target, expires_at: new Date(expires).toISOString() }, now });
      touchRun(this.db, run.id, now);
    });
    const parked = patchedRow(row, 'needs_approval', patch, now);
    after.push(() => {
      this.armPark(row.id, PARK_DURATION_MS);
      this.emitRow(parked);
      this.emit({ type: 'run_event', run_id: run.id, event: 'approval_required', data: { row_id: row.id, tool, target: effect.target } });
      this.emit({ type: 'work_available', kind: 'approval', item_id: row.id, agent: run.agent, title: `${run.agent ?? 'Your run'} asks to run ${tool}: ${effect.target}` });
      this.emitInbox();
    });
    return parked;
  }

  private compileFor(rules: CreateRunOptions['rules']): CompiledRules {
    if (rules && !Array.isArray(rules) && (rules as CompiledRules).kind === 'nexus.compiled-rules') return rules as CompiledRules;
    const v = validateRules(rules ?? []);
    if (!v.ok) throw new KernelError('invalid_rules', `The approval rules are invalid: ${v.errors.map((e) => e.message).join('; ')}`, v.errors);
    return compileRules(v.rules);
  }

  /** The run's compiled rules: compiled at creation, or once from the stored JSON after a restart. */
  private compiledFor(run: Run): CompiledRules {
    let c = this.compiledByRun.get(run.id);
    if (!c) {
      c = compileRules(run.rules);
      this.compiledByRun.set(run.id, c);
    }
    return c;
  }

  // ── executing ────────────────────────────────────────────────────────────────────────────────────────────

  private execute(run: Run, row: Row): void {
    this.live.add(row.id);
    const signal = this.runAbort(run.id).signal;
    const tool = this.tools.find(run.id, row);
    const done = (async () => {
      let result: ToolResult;
      let state: RowState = 'succeeded';
      let error: RowPatch['error'] = null;
      try {
        if (!tool) {
          const text = `No tool named ${row.tool} is available to this run.`;
          result = results.toolError(text, 'unknown_tool');
          state = 'failed';
          error = { code: 'unknown_tool', detail: text };
        } else {
          result = checkResult(await tool.run(row.input, { run, row, workspace: run.workspace, signal }));
          if (result.isError) {
            const sc = result.structuredContent ?? {};
            state = sc.timed_out === true ? 'timed_out' : 'failed';
            const code = typeof sc.code === 'string' ? sc.code : state === 'timed_out' ? 'tool_timeout' : 'tool_error';
            error = { code, detail: result.content.map((c) => c.text).join('\n').slice(0, 1024) };
          }
        }
      } catch (e) {
        result = results.toolError(`The tool ${row.tool} failed: ${message(e)}`);
        state = 'failed';
        error = { code: 'tool_error', detail: message(e) };
      }
      this.inFlight.delete(row.id);
      if (this.state === 'closed') return;
      this.queueEnd(row, state, { result, error });
    })();
    this.inFlight.set(row.id, { run_id: run.id, done });
  }

  /**
   * Tool completions are recorded in batches: every completion of one event-loop turn commits in one
   * transaction (group commit), then its waiters wake. Nobody learns of a result before it is durable.
   */
  private queueEnd(row: Row, to: RowState, patch: RowPatch): void {
    this.pendingEnds.push({ row, to, patch });
    if (this.pendingEnds.length === 1) setImmediate(() => this.flushEnds());
  }

  private flushEnds(): void {
    const batch = this.pendingEnds;
    this.pendingEnds = [];
    if (!batch.length || this.state === 'closed') return;
    const after: After = [];
    tx(this.db, () => {
      for (const e of batch) this.endRow(e.row, ['running'], e.to, e.patch, undefined, after);
    });
    for (const f of after) f();
  }

  // ── ending rows and runs ─────────────────────────────────────────────────────────────────────────────────

  /** Guarded end of a row; then waiters, events, and the row's on_failure. Null when another ender won. */
  private endRow(row: Row, from: readonly RowState[], to: RowState, patch: RowPatch, eventType?: string, after?: After): Row | null {
    const now = this.clock.now();
    const full: RowPatch = { ...patch, ended_at: now };
    const won = tx(this.db, () => {
      if (!transitionRow(this.db, row.id, from, to, full, now)) return false;
      if (eventType) insertRunEvent(this.db, { run_id: row.run_id, type: eventType, data: { row_id: row.id, error: patch.error ?? null }, now });
      return true;
    });
    if (!won) return null;
    // The caller's `row` may be stale in fields it did not set; only rows it decided itself come in fresh.
    const ended = from.length === 1 && from[0] === row.state ? patchedRow(row, to, full, now) : null;
    if (after) {
      after.push(() => void this.afterEnd(row.id, ended));
      return ended ?? getRow(this.db, row.id);
    }
    return this.afterEnd(row.id, ended);
  }

  private endParked(row: Row, to: RowState, patch: RowPatch, inboxStatus: string, by: string | null, eventType: string): Row | null {
    const now = this.clock.now();
    const won = tx(this.db, () => {
      if (!transitionRow(this.db, row.id, ['needs_approval'], to, { ...patch, ended_at: now }, now)) return false;
      resolveInboxForRow(this.db, { row_id: row.id, status: inboxStatus, by, now });
      insertRunEvent(this.db, { run_id: row.run_id, type: eventType, data: { row_id: row.id, by, detail: patch.error?.detail ?? null }, now });
      return true;
    });
    if (!won) return null;
    this.emit({ type: 'run_event', run_id: row.run_id, event: eventType, data: { row_id: row.id } });
    this.emitInbox();
    return this.afterEnd(row.id);
  }

  private afterEnd(row_id: string, known: Row | null = null): Row {
    this.disarmPark(row_id);
    this.live.delete(row_id);
    const ended = known ?? getRow(this.db, row_id)!;
    const list = this.waiters.get(row_id);
    if (list) {
      this.waiters.delete(row_id);
      for (const w of list) w.resolve(ended);
    }
    this.emitRow(ended);
    if ((ended.state === 'failed' || ended.state === 'timed_out') && ended.on_failure === 'fail_run') {
      const why = `row ${ended.id} (${ended.tool}) ${ended.state}: ${ended.error?.code ?? 'error'}`;
      // Deferred: the caller finishes its own bookkeeping for this row first.
      queueMicrotask(() => {
        const run = getRun(this.db, ended.run_id);
        if (run && run.status === 'running' && this.state !== 'closed') this.terminate(run.id, 'failed', { error: why, rowWhy: `the run failed (${why})`, event: 'run_failed' });
      });
    }
    return ended;
  }

  private terminate(run_id: string, status: Exclude<RunStatus, 'running'>, o: { error: string | null; final_answer?: string | null; rowWhy: string; event: string }): Run {
    const run = getRun(this.db, run_id);
    if (!run) throw notFound('run', run_id);
    const now = this.clock.now();
    const live = listLiveRowsOfRun(this.db, run_id);
    const canceled: string[] = [];
    let closedCards = 0;
    let ended = false;
    tx(this.db, () => {
      ended = endRunRow(this.db, { id: run_id, status, final_answer: o.final_answer ?? null, error: o.error, now });
      for (const row of live) {
        if (transitionRow(this.db, row.id, LIVE, 'canceled', { error: { code: 'canceled', detail: o.rowWhy }, result: results.canceled(o.rowWhy), ended_at: now }, now)) {
          canceled.push(row.id);
          closedCards += resolveInboxForRow(this.db, { row_id: row.id, status: 'canceled', now });
        }
      }
      if (ended || canceled.length) insertRunEvent(this.db, { run_id, type: o.event, data: { status, error: o.error, canceled_rows: canceled }, now });
    });
    // Already ended and nothing live: nothing to do, nothing to announce (stop is idempotent).
    if (!ended && !canceled.length) return getRun(this.db, run_id)!;
    // After the durable record: kill running tools, wake waiters, tell everyone.
    this.runAborts.get(run_id)?.abort();
    this.runAborts.delete(run_id);
    this.compiledByRun.delete(run_id);
    for (const id of canceled) this.afterEnd(id);
    this.emit({ type: 'run_event', run_id, event: o.event, data: { status, canceled_rows: canceled.length } });
    this.emit({ type: 'runs_changed' });
    if (closedCards) this.emitInbox();
    return getRun(this.db, run_id)!;
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────────────────

  private parkedRow(row_id: string): Row {
    const row = getRow(this.db, row_id);
    if (!row) throw notFound('row', row_id);
    if (row.state !== 'needs_approval') throw conflict(`Row ${row_id} is not waiting for approval (it is ${row.state}).`);
    return row;
  }

  private armPark(row_id: string, ms: number): void {
    this.disarmPark(row_id);
    this.live.add(row_id);
    this.parkTimers.set(
      row_id,
      this.clock.setTimeout(() => {
        this.parkTimers.delete(row_id);
        if (this.state === 'started' || this.state === 'new') this.expire(row_id);
      }, ms),
    );
  }
  private disarmPark(row_id: string): void {
    const h = this.parkTimers.get(row_id);
    if (h !== undefined) {
      this.clock.clearTimeout(h);
      this.parkTimers.delete(row_id);
    }
  }

  private runAbort(run_id: string): AbortController {
    let c = this.runAborts.get(run_id);
    if (!c) {
      this.runAborts.set(run_id, (c = new AbortController()));
      setMaxListeners(0, c.signal); // a wide fan of tools listens to one run signal
    }
    return c;
  }

  private emitRow(row: Row, extra: Record<string, unknown> = {}): void {
    if (this.events.size === 0) return;
    this.emit({ type: 'run_event', run_id: row.run_id, event: 'row_state', data: { row_id: row.id, state: row.state, tool: row.tool, origin: row.origin, ...extra } });
  }

  private assertOpen(): void {
    if (!this.isOpen) throw new KernelError('closed', 'the kernel is closed');
  }
}

/** A tool result must be MCP CallToolResult-shaped; anything else is an error (never trusted as success). */
function checkResult(r: unknown): ToolResult {
  const x = r as ToolResult;
  if (!x || typeof x !== 'object' || !Array.isArray(x.content) || !x.content.every((c) => c && c.type === 'text' && typeof c.text === 'string')) {
    throw new Error('the tool returned something that is not a tool result');
  }
  return x;
}
