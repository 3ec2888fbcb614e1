// The turn engine (DESIGN §2, §4): startTurn / continueRun / addFinalizer, and the runs' loops (turn-loop.ts)
// through rounds (rounds.ts), the candidate final answer (finish.ts), compaction and lifecycle hooks.
import type { Db } from '../store/db.js';
import type { ModelProvider } from '../providers/index.js';
import { RunnerPool } from '../runners/pool.js';
import { KernelError, notFound } from '../kernel/errors.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Run } from '../kernel/types.js';
import { Questions } from './ask.js';
import { Compactor } from './compaction.js';
import { appendMessage, getTurnState, initTurnState, liveMessages, runningTurnRuns, updateTurnState, type MessageKind } from '../store/queries/conversation.js';
import { HookRunner } from './hooks.js';
import { createAgentRun } from './profiles.js';
import { continuationTool } from './internal-tools.js';
import { RunResources } from './run-resources.js';
import { closeOrphanedCards } from './restart.js';
import { activeAgent, stopHookCap } from './turn-limits.js';
import { finishTurn, type Finalizer } from './finish.js';
import { errorMessage } from '../../shared/errors.js';
import { registerBudgetCards } from './budget.js';
import { driveTurn, type TurnLoopContext } from './turn-loop.js';
import { releaseWhenDone } from './run-release.js';
import type { AgentStarter, StartTurnOptions, TurnEngineOptions } from './turn-options.js';

export type { Finalizer, FinalizerVerdict } from './finish.js';

export class TurnEngine {
  readonly kernel: Kernel;
  private readonly db: Db;
  readonly runners: RunnerPool;
  readonly hooks: HookRunner;
  readonly questions: Questions;
  private readonly compactor: Compactor;
  private readonly finalizers: Finalizer[] = [];
  private readonly active = new Map<string, Promise<void>>();
  private readonly pendingContinuations = new Map<string, string[]>();
  private readonly resources: RunResources;
  private readonly unsubscribe: () => void;
  /** Aborted when NEXUS closes: in-flight model calls end at once instead of at their timeout. */
  private readonly shutdown = new AbortController();
  private closed = false;
  /** Who runs an agent NEXUS does not drive itself (an ACP agent: external/acp), or null for NEXUS's own loop. */
  private starter: AgentStarter | null = null;
  /** What the loop and its round, fan, continuation and finish steps get from the engine. */
  private readonly loop: TurnLoopContext;

  constructor(private readonly opts: TurnEngineOptions) {
    this.kernel = opts.kernel;
    this.db = opts.db;
    this.runners = opts.runners ?? new RunnerPool();
    const ev = (run_id: string, type: string, data?: unknown) => this.event(run_id, type, data);
    this.resources = new RunResources(this.kernel, this.db, this.runners, opts, ev);
    this.hooks = new HookRunner(this.kernel, ev);
    registerBudgetCards(this.kernel, this.hooks);
    this.questions = new Questions(this.kernel, this.db, ev);
    this.compactor = new Compactor(this.kernel, this.db, ev, (run) => this.providerFor(run), this.hooks);
    this.loop = {
      kernel: this.kernel,
      db: this.db,
      provider: (run) => this.providerFor(run),
      shutdown: this.shutdown.signal,
      event: ev,
      failRun: (run_id, reason) => this.failRun(run_id, reason),
      running: (run_id) => this.running(run_id),
      resources: this.resources,
      hooks: this.hooks,
      compactor: this.compactor,
      continuations: (run_id) => this.pendingContinuations.get(run_id),
      tokenBudget: () => this.opts.tokenBudget,
      say: (run_id, turn, kind, text) => this.say(run_id, turn, kind, text),
      finish: (run, answer) => this.finish(run, answer),
    };
    this.kernel.registerTool(this.questions.tool, { replace: true });
    this.kernel.registerTool(this.questions.awaitTool, { replace: true });
    this.kernel.registerTool(continuationTool, { replace: true });
    this.kernel.registerTool(this.compactor.tool, { replace: true });
    this.unsubscribe = releaseWhenDone(this.kernel, this.runners, this.hooks, this.resources);
  }

  /** GOVERNANCE: called with each candidate final answer, after the stop hooks accepted it. */
  addFinalizer(fn: Finalizer): () => void {
    this.finalizers.push(fn);
    return () => {
      const i = this.finalizers.indexOf(fn);
      if (i >= 0) this.finalizers.splice(i, 1);
    };
  }

  /** EXTERNAL: the starter of agents with their own loop (an ACP agent's profile `acp`). */
  setStarter(starter: AgentStarter): void {
    this.starter = starter;
  }

  /** Start a turn: a run-backed run with mode, rules and hooks frozen from the profile (tightened by the request). */
  startTurn(o: StartTurnOptions): Run {
    if (this.closed) throw new KernelError('closed', 'the kernel is closed');
    if (o.run) return this.continueRun(o.run, o.prompt);
    const agent = activeAgent(this.db, o.agent);
    const started = this.starter?.(agent, o);
    if (started) return started;
    // Mode, rules and hooks frozen from the profile, tightened (never loosened) by the request (KERNEL's rule).
    const run = createAgentRun(this.kernel, {
      agent: agent.name,
      prompt: o.prompt,
      request: { mode: o.mode, extra_rules: o.extra_rules },
      parent: o.parent ?? null,
      chain_id: o.chain?.chain_id ?? o.chain_id ?? null,
      created_by: o.created_by ?? null,
    });
    const now = this.kernel.clock.now();
    initTurnState(this.db, { run_id: run.id, agent: agent.name, now });
    appendMessage(this.db, { run_id: run.id, turn: 1, round: null, kind: 'prompt', message: { role: 'user', text: o.prompt }, now });
    this.launch(run.id, true);
    return this.kernel.getRun(run.id)!;
  }

  /**
   * Plant a kernel continuation: the text reaches the model as a new message in the run's conversation
   * (a kernel row `continuation`, so it is on the record and crosses the stage by its origin). A run that
   * already ended re-opens for another turn.
   */
  continueRun(run_id: string, text: string): Run {
    if (this.closed) throw new KernelError('closed', 'the kernel is closed');
    const run = this.kernel.getRun(run_id);
    if (!run) throw notFound('run', run_id);
    if (!run.agent) throw new KernelError('not_supported', `Run ${run_id} is a person's standalone run; it has no model to continue.`);
    if (run.created_by?.startsWith('acp:')) throw new KernelError('not_supported', `Run ${run_id} is an ACP agent's session; start a new run to ask it again.`);
    if (typeof text !== 'string' || !text.trim()) throw new KernelError('invalid_input', 'a continuation needs text');
    activeAgent(this.db, run.agent);
    const queue = this.pendingContinuations.get(run_id) ?? [];
    queue.push(text);
    this.pendingContinuations.set(run_id, queue);
    if (!this.active.has(run_id)) {
      if (run.status !== 'running') {
        this.kernel.reopenRun(run_id);
        const st = getTurnState(this.db, run_id) ?? initTurnState(this.db, { run_id, agent: run.agent, now: this.kernel.clock.now() });
        updateTurnState(this.db, run_id, { turn: st.turn + 1, stop_continuations: 0 }, this.kernel.clock.now());
        this.launch(run_id, true);
      } else this.launch(run_id, false);
    }
    return this.kernel.getRun(run_id)!;
  }

  /** Runs still 'running' after a restart pick up where their conversation stands. */
  recover(): string[] {
    closeOrphanedCards(this.kernel, this.db, this.questions, this.hooks);
    const resumed: string[] = [];
    for (const id of runningTurnRuns(this.db)) {
      if (this.active.has(id)) continue;
      this.launch(id, false);
      resumed.push(id);
    }
    return resumed;
  }

  /** Resolves when the run's loop has nothing left to do (tests, `nexus run --wait` in process). */
  async settled(run_id: string): Promise<Run> {
    for (let p = this.active.get(run_id); p; p = this.active.get(run_id)) await p;
    return this.kernel.getRun(run_id)!;
  }

  messages(run_id: string) {
    return liveMessages(this.db, run_id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    // Loops see `closed` at their next step and leave without touching the store; what they were doing is
    // recorded and resumes at the next start (recover()).
    this.shutdown.abort();
    await this.runners.closeAll();
  }

  // ── the loop ─────────────────────────────────────────────────────────────────────────────────────────────

  private launch(run_id: string, newTurn: boolean): void {
    const p = driveTurn(this.loop, run_id, newTurn)
      .catch((e) => {
        try {
          this.failRun(run_id, `internal error in the turn loop: ${errorMessage(e)}`);
        } catch {
          /* NEXUS is closing: the run stays as recorded and resumes at the next start */
        }
      })
      .finally(() => {
        this.active.delete(run_id);
        if ((this.pendingContinuations.get(run_id)?.length ?? 0) > 0) setImmediate(() => this.relaunch(run_id));
      });
    this.active.set(run_id, p);
  }

  /** A continuation that arrived while the loop was ending starts the next turn (on a fresh tick). */
  private relaunch(run_id: string): void {
    if (this.active.has(run_id) || this.closed || !this.kernel.isOpen) return;
    const run = this.kernel.getRun(run_id);
    // A stopped run stays stopped: what was queued for it is dropped.
    if (!run || run.status === 'canceled') {
      this.pendingContinuations.delete(run_id);
      return;
    }
    if (run.status !== 'running') {
      const st = getTurnState(this.db, run_id);
      this.kernel.reopenRun(run_id);
      if (st) updateTurnState(this.db, run_id, { turn: st.turn + 1, stop_continuations: 0 }, this.kernel.clock.now());
      this.launch(run_id, true);
    } else this.launch(run_id, false);
  }

  private running(run_id: string): boolean {
    return !this.closed && this.kernel.isOpen && this.kernel.getRun(run_id)?.status === 'running';
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────────────────

  /** The candidate final answer: stop hooks, then the finalizers (finish.ts). */
  private finish(run: Run, answer: string): Promise<'ended' | 'continue'> {
    const say = (run_id: string, turn: number, text: string) => this.say(run_id, turn, 'feedback', text);
    return finishTurn({ ...this.loop, finalizers: this.finalizers, stopHookCap: () => stopHookCap(this.opts.stopHookCap), say }, run, answer);
  }

  private say(run_id: string, turn: number, kind: MessageKind, text: string): void {
    appendMessage(this.db, { run_id, turn, round: null, kind, message: { role: 'user', text }, now: this.kernel.clock.now() });
  }

  private failRun(run_id: string, reason: string): void {
    const run = this.kernel.getRun(run_id);
    if (!run || run.status !== 'running' || !this.kernel.isOpen) return;
    this.kernel.endRun(run_id, { status: 'failed', error: reason });
    this.resources.dropProvider(run_id);
  }

  providerFor(run: Run): Promise<ModelProvider> {
    return this.resources.provider(run);
  }

  event(run_id: string, type: string, data?: unknown): void {
    try {
      this.kernel.records.recordRunEvent(run_id, type, data);
    } catch {
      /* the record is best effort once the store is closing */
    }
    this.kernel.emit({ type: 'run_event', run_id, event: type, ...(data === undefined ? {} : { data }) });
  }
}
