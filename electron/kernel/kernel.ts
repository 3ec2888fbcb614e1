// The kernel: runs, rows and the approval stage every row crosses (DESIGN §2, §7; seed 000). This class is the
// stable public face; the work is done by plain functions of the kernel's state (kernel-state.ts), one module per
// concern, listed in README.md (the submit path and its verdict: stage.ts, whose header draws it).
import type { Db } from '../store/db.js';
import { getRun } from '../store/queries/runs.js';
import { getRow, listRowsOfRun } from '../store/queries/rows.js';
import { countPendingInbox } from '../store/queries/inbox.js';
import { listAgents } from '../store/queries/agents.js';
import type { RunStatus } from '../../shared/types.js';
import type { NexusEvent } from '../../shared/api/index.js';
import { systemClock, type Clock } from './clock.js';
import { EventBus } from './events.js';
import { ToolRegistry } from './registry.js';
import { InboxKinds } from './inbox.js';
import { KernelRecords } from './records.js';
import { BUILTIN_TOOLS } from './tools/index.js';
import { createKernelState, emit, emitInbox, isOpen, runAbort, type InboxChange, type KernelState } from './kernel-state.js';
import { submitRows } from './stage.js';
import { approveRow, denyRow, expireRow } from './parking.js';
import { waitRow } from './row-endings.js';
import { createRun, readdressRows, reopenRun, terminateRun } from './run-lifecycle.js';
import { closeKernel, recoverAtStart, type RecoveryReport } from './recovery.js';
import { sandboxPolicy } from './containment.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import type { ClientExecutor, CreateRunOptions, ExecutorTool, HopGate, Row, Run, SubmitRowOptions } from './types.js';
import { revokeTrust, SessionTrust, type TrustChoice } from './trust.js';
import { createSecretStore, type SecretCipher, type SecretStore } from '../store/secrets.js';

export type { RecoveryReport } from './recovery.js';

export interface KernelOptions {
  db: Db;
  /** NEXUS's data folder: hidden from every sandboxed process. */
  dataDir: string;
  /** Where default workspaces live (<workspacesDir>/<agent or run id>); default `<dataDir>-workspaces`. */
  workspacesDir?: string;
  clock?: Clock;
  events?: EventBus;
  /** Encrypts the secret store's values (the desktop app's OS keychain); headless: none (a 0600 file). */
  secretCipher?: SecretCipher;
}

export class Kernel {
  /** The kernel's connection: its own. The layers above read and record through `records` and the methods. */
  private readonly db: Db;
  readonly clock: Clock;
  readonly events: EventBus;
  readonly dataDir: string;
  readonly workspacesDir: string;
  /** Tools: built-ins, plus what runners and governance register (global or per run). */
  readonly tools = new ToolRegistry();
  /** Inbox kinds other than autonomy (orchestration holds, attention items, questions) plug in here. */
  readonly inbox: InboxKinds;
  /** MCP secrets of agent profiles, outside the database (agent-secrets.ts). */
  readonly secrets: SecretStore;
  /** Agents' profiles, runs, run events and the process ledger, as the layers above read and record them. */
  readonly records: KernelRecords;
  /** Session trust grants (in memory only: they end with this process). */
  readonly trust: SessionTrust;

  private readonly k: KernelState;

  constructor(opts: KernelOptions) {
    this.db = opts.db;
    this.dataDir = opts.dataDir;
    this.workspacesDir = opts.workspacesDir ?? `${opts.dataDir}-workspaces`;
    this.clock = opts.clock ?? systemClock;
    this.events = opts.events ?? new EventBus();
    this.k = createKernelState({
      db: this.db,
      clock: this.clock,
      events: this.events,
      dataDir: this.dataDir,
      workspacesDir: this.workspacesDir,
      tools: this.tools,
      failRun: (k, run_id, why) => terminateRun(k, run_id, 'failed', { error: why, rowWhy: `the run failed (${why})`, event: 'run_failed' }),
    });
    this.inbox = new InboxKinds(this, this.db);
    // An answer to an autonomy card goes from the inbox's dispatch straight to the park it answers, card in hand.
    this.inbox.register('autonomy', {
      approve: (item, o) => approveRow(this.k, item.row_id ?? item.id, { by: o.by, trust_session: o.trust_session, trust_scope: o.trust_scope }, item),
      deny: (item, o) => denyRow(this.k, item.row_id ?? item.id, { by: o.by, reason: o.reason }),
    });
    this.records = new KernelRecords(this.db, this.clock);
    this.trust = new SessionTrust(this.k);
    this.secrets = createSecretStore(this.dataDir, opts.secretCipher);
    for (const t of BUILTIN_TOOLS) this.tools.register(t);
    for (const a of listAgents(this.db)) if (a.status === 'removed') this.k.removedAgents.add(a.name);
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Crash recovery, then ready for work. Rows that were running (or never decided) when the process died are
   * marked interrupted and never re-run; parked rows keep their deadline; what expired while closed expires now.
   * Call after every module registered its listeners and tools (createNexus does).
   */
  start(): RecoveryReport {
    return recoverAtStart(this.k);
  }

  /** Stop everything this process runs: timers cleared, tools aborted (their rows marked interrupted). Parks stay. */
  close(): Promise<void> {
    return closeKernel(this.k);
  }

  get isOpen(): boolean {
    return isOpen(this.k);
  }

  // ── hooks other modules install ──────────────────────────────────────────────────────────────────────────

  /** GOVERNANCE: the orchestration gate, called for every model row before the stage. Must be synchronous. */
  setHopGate(gate: HopGate): void {
    this.k.hopGate = gate;
  }
  /** Joined to (or left) a team desk: while on, changes the desk must learn of also write the outbox (desk-outbox.ts). */
  setDeskOutbox(on: boolean): void {
    this.k.deskOutbox = on;
  }
  /** The stand-in for the tools of client-executed runs (created_by `client:…`; kernel/client-runs.ts). */
  setClientExecutor(executor: ClientExecutor): void {
    this.k.clientExecutor = executor;
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
    return createRun(this.k, opts);
  }

  /** The OS sandbox for a process of `run` (an MCP server passes its own network allow list). */
  sandboxPolicy(run: Run, o: { network?: string[] } = {}): SandboxPolicy {
    return sandboxPolicy(this.k, run, o);
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
    return runAbort(this.k, run_id).signal;
  }

  /** Force-stop: every live row canceled (running tools killed), held cards closed, nothing asked. */
  stopRun(run_id: string, opts: { reason?: string } = {}): Run {
    return terminateRun(this.k, run_id, 'canceled', { error: opts.reason ?? 'stopped', rowWhy: opts.reason ?? 'the run was stopped', event: 'run_stopped' });
  }

  /** End a turn (turns call this): its remaining live rows, if any, are canceled. */
  endRun(run_id: string, opts: { status: Exclude<RunStatus, 'running'>; final_answer?: string | null; error?: string | null }): Run {
    return terminateRun(this.k, run_id, opts.status, {
      error: opts.error ?? null,
      final_answer: opts.final_answer ?? null,
      rowWhy: 'the run ended',
      event: 'run_ended',
    });
  }

  /** Re-open an ended run for another turn (turns' continueRun). */
  reopenRun(run_id: string): Run {
    return reopenRun(this.k, run_id);
  }

  // ── rows ─────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * One tool call: recorded at `ready`, then across the hop gate (model rows) and the stage. Returns the row as
   * the stage left it: `running` (granted; executing), `needs_approval` (parked) or `failed` (refused).
   */
  submitRow(run_id: string, opts: SubmitRowOptions): Row {
    return this.submitRows(run_id, [opts])[0];
  }

  /** A round's fan, recorded and decided in one transaction, then the granted rows start (stage.ts says how). */
  submitRows(run_id: string, calls: readonly SubmitRowOptions[]): Row[] {
    return submitRows(this.k, run_id, calls);
  }

  /**
   * Resolves with the row once it is terminal (succeeded, failed, timed_out, canceled). With `signal`, an
   * abort stops waiting: the promise resolves with the row as it is then (a door's wait timed out).
   */
  waitRow(row_id: string, opts: { signal?: AbortSignal } = {}): Promise<Row> {
    return waitRow(this.k, row_id, opts);
  }

  /** Approve a parked row: recorded `running` (granted_by person) before it runs. */
  approve(row_id: string, opts: { by: string; trust_session?: boolean; trust_scope?: TrustChoice }): Row {
    return approveRow(this.k, row_id, opts);
  }

  /** Deny a parked row: failed approval_denied, the reason as error.detail. */
  deny(row_id: string, opts: { by: string; reason?: string }): Row {
    return denyRow(this.k, row_id, opts);
  }

  /** The park clock ran out: timed_out approval_expired; the next round reads exactly APPROVAL_EXPIRED_TEXT. */
  expire(row_id: string): Row | null {
    return expireRow(this.k, row_id);
  }

  // ── agents: executor revocation, removal ─────────────────────────────────────────────────────────────────

  /** The agent's held rows lose their addressee (task_readdressed); the person's door still answers them. */
  readdressRows(agent: string): number {
    return readdressRows(this.k, agent);
  }

  /** Bookkeeping when an agent is removed (agents/profiles.ts does the store part): no trust, no new runs. */
  agentRemoved(agent: string): void {
    this.k.removedAgents.add(agent);
    revokeTrust(this.k, { agent });
  }
  agentSaved(agent: string): void {
    this.k.removedAgents.delete(agent);
  }

  // ── counters for status ──────────────────────────────────────────────────────────────────────────────────

  pendingCount(): number {
    return countPendingInbox(this.db);
  }

  /** Announce a change of the inbox (modules that add or close cards of their own call this). */
  emitInbox(change?: InboxChange): void {
    emitInbox(this.k, change);
  }

  emit(event: NexusEvent): void {
    emit(this.k, event);
  }
}
