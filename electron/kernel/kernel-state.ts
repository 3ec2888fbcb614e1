// The kernel's in-process state, shared by the modules that make up the Kernel class (kernel.ts is the thin
// public face; stage.ts, parking.ts, row-endings.ts, run-lifecycle.ts, tool-execution.ts and recovery.ts are
// plain functions of this state). Nothing outside electron/kernel/ should reach for it: use the Kernel API.
import { setMaxListeners } from 'node:events';
import type { Db } from '../store/db.js';
import { countPendingInbox, inboxWire, type InboxEntry } from '../store/queries/inbox.js';
import type { RowPatch } from '../store/queries/row-updates.js';
import type { CompiledRules } from '../../shared/rules/index.js';
import type { TrustGrant } from '../../shared/trust.js';
import { TERMINAL_ROW_STATES, type RowState } from '../../shared/types.js';
import type { NexusEvent } from '../../shared/api/index.js';
import type { Clock, TimerHandle } from './clock.js';
import type { EventBus } from './events.js';
import { KernelError } from './errors.js';
import type { ToolRegistry } from './registry.js';
import type { ClientExecutor, HopGate, Row } from './types.js';

/** Effects to run once the transaction that decided them has committed. */
export type After = Array<() => void>;
/** The default hop gate: every hop proceeds (GOVERNANCE installs the real one). */
export const PROCEED: HopGate = () => ({ proceed: true });
export type Waiter = { resolve: (row: Row) => void; reject: (e: Error) => void };
export const LIVE: readonly RowState[] = ['ready', 'needs_approval', 'running'];
export const isTerminal = (s: RowState) => TERMINAL_ROW_STATES.includes(s);

/** The park clock's one timer: the row whose deadline it waits for, that deadline, and how it moves on when that row ends first. */
export interface ParkTimer {
  readonly row_id: string;
  readonly at: number;
  readonly handle: TimerHandle;
  next(): void;
}

export interface KernelState {
  readonly db: Db;
  readonly clock: Clock;
  readonly events: EventBus;
  readonly dataDir: string;
  /** Where default workspaces are made (outside the data dir). */
  readonly workspacesDir: string;
  readonly tools: ToolRegistry;
  readonly compiledByRun: Map<string, CompiledRules>;
  readonly waiters: Map<string, Waiter[]>;
  /** The park clock: one timer, for the earliest deadline of all parked rows (parking.ts); null when none waits. */
  parkTimer: ParkTimer | null;
  readonly inFlight: Map<string, { run_id: string; done: Promise<void> }>;
  /** Rows this process knows are running or parked (cleared when they end): waitRow skips the read. */
  readonly live: Set<string>;
  /** Stop-hook rows of this process whose bash exit 2 is an answer (SubmitRowOptions.stop_hook). */
  readonly stopHookRows: Set<string>;
  readonly seqs: Map<string, number>;
  /** Tool completions waiting for the next group commit (row-endings.ts). */
  pendingEnds: Array<{ row: Row; to: RowState; patch: RowPatch }>;
  readonly runAborts: Map<string, AbortController>;
  /** "Trust for this session": grants (a whole agent, or calls like one) that end with this process (trust.ts). */
  trust: TrustGrant[];
  readonly removedAgents: Set<string>;
  hopGate: HopGate;
  /** Stands in for the tools of client-executed runs (client-runs.ts); null until a module installs it. */
  clientExecutor: ClientExecutor | null;
  /**
   * Fails a running run because one of its `fail_run` rows failed. Row endings sit below the run lifecycle, so
   * the lifecycle's terminate is handed in as this port (kernel.ts wires it) rather than imported upward.
   */
  readonly failRun: (k: KernelState, run_id: string, why: string) => void;
  phase: 'new' | 'started' | 'closing' | 'closed';
  /**
   * Joined to a team desk: every change the desk must learn of also writes an outbox row in its own transaction
   * (desk-outbox.ts). Off without a desk, so a lone kernel pays nothing for it.
   */
  deskOutbox: boolean;
}

export function createKernelState(base: Pick<KernelState, 'db' | 'clock' | 'events' | 'dataDir' | 'workspacesDir' | 'tools' | 'failRun'>): KernelState {
  return {
    ...base,
    compiledByRun: new Map(),
    waiters: new Map(),
    parkTimer: null,
    inFlight: new Map(),
    live: new Set(),
    stopHookRows: new Set(),
    seqs: new Map(),
    pendingEnds: [],
    runAborts: new Map(),
    trust: [],
    removedAgents: new Set(),
    hopGate: PROCEED,
    clientExecutor: null,
    phase: 'new',
    deskOutbox: false,
  };
}

export const isOpen = (k: KernelState): boolean => k.phase === 'new' || k.phase === 'started';

export function assertOpen(k: KernelState): void {
  if (!isOpen(k)) throw new KernelError('closed', 'the kernel is closed');
}

export function emit(k: KernelState, event: NexusEvent): void {
  k.events.emit(event);
}

export function emitRow(k: KernelState, row: Row, extra: Record<string, unknown> = {}): void {
  if (k.events.size === 0) return;
  emit(k, {
    type: 'run_event',
    run_id: row.run_id,
    event: 'row_state',
    data: { row_id: row.id, state: row.state, tool: row.tool, origin: row.origin, ...extra },
  });
}

/** What changed in the inbox: cards added (as written, insertInboxItem's value) and cards closed (id and how). */
export interface InboxChange {
  added?: readonly InboxEntry[];
  removed?: ReadonlyArray<{ id: string; status: string }>;
}

/**
 * Announce a change of the inbox (modules that add or close cards of their own call this). With the change
 * named, the event carries the added cards whole and the closed ones by id, so a window updates its list in
 * place; without it, a window refetches.
 */
export function emitInbox(k: KernelState, change?: InboxChange): void {
  const pending = countPendingInbox(k.db);
  if (!change) return emit(k, { type: 'inbox_changed', pending });
  const added = (change.added ?? []).filter((i) => i.status === 'pending').map(inboxWire);
  // Only the parts that changed travel: an approval's event is the id and how it closed.
  const removed = [...(change.removed ?? [])];
  emit(k, { type: 'inbox_changed', pending, ...(added.length ? { added } : {}), ...(removed.length || !added.length ? { removed } : {}) } as NexusEvent);
}

/** A parked row ended: when the park clock waits for its deadline, the clock moves on to the next one. */
export function disarmPark(k: KernelState, row_id: string): void {
  const t = k.parkTimer;
  if (t?.row_id !== row_id) return;
  k.clock.clearTimeout(t.handle);
  k.parkTimer = null;
  t.next();
}

/** The run's abort controller: aborted when the run is stopped or ends. */
export function runAbort(k: KernelState, run_id: string): AbortController {
  let c = k.runAborts.get(run_id);
  if (!c) {
    k.runAborts.set(run_id, (c = new AbortController()));
    setMaxListeners(0, c.signal); // a wide fan of tools listens to one run signal
  }
  return c;
}
