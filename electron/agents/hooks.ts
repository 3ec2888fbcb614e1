// Lifecycle hooks as ordinary kernel rows (DESIGN §4): each { tool, input, timeout_s? } is submitted with
// origin `kernel` at its event, whatever tools the model may call. A failing hook raises an attention card
// (Retry / Abandon) and the turn waits for a person's answer; a force-stop cancels the hook's row and any
// attention wait, and asks nobody.
import type { EffectProfile, HookSpec } from '../../shared/types.js';
import { targetOf } from '../kernel/effect.js';
import type { InboxEntry } from '../store/queries/inbox.js';
import type { InboxActOptions, InboxKindHandler } from '../kernel/inbox.js';
import type { Kernel } from '../kernel/kernel.js';
import { newId } from '../kernel/ids.js';
import type { Run } from '../kernel/types.js';
import { readHookRow, type HookOutcome } from './hook-outcome.js';
import type { HookEvent } from './policy.js';
import { concreteWireName } from './run-tools.js';

export type HookResult = HookOutcome | { kind: 'abandoned' };
type Decision = 'retry' | 'abandon' | 'stopped';

export const HOOK_SOURCE = 'lifecycle_hook';

export class HookRunner {
  private waiting = new Map<string, { run_id: string; resolve: (d: Decision) => void }>();
  /** Attention items raised by other modules (data.source) are routed to their own handlers. */
  private sources = new Map<string, InboxKindHandler>();

  constructor(
    private readonly kernel: Kernel,
    private readonly event: (run_id: string, type: string, data?: unknown) => void,
  ) {
    kernel.inbox.register('attention', {
      retry: (item, o) => this.route(item, o, 'retry'),
      abandon: (item, o) => this.route(item, o, 'abandon'),
    });
  }

  /** Another module's attention items (e.g. GOVERNANCE's failed delegated task) keep their own Retry/Abandon. */
  registerAttentionSource(source: string, handler: InboxKindHandler): void {
    this.sources.set(source, handler);
  }

  private route(item: InboxEntry, o: InboxActOptions, d: 'retry' | 'abandon') {
    const source = typeof item.data.source === 'string' ? item.data.source : HOOK_SOURCE;
    if (source !== HOOK_SOURCE) {
      const fn = this.sources.get(source)?.[d];
      if (!fn) throw new Error(`nobody handles ${d} for attention items from ${source}`);
      return fn(item, o);
    }
    const state = d === 'retry' ? 'retried' : 'abandoned';
    this.kernel.inbox.resolve(item.id, state, o.by);
    const w = this.waiting.get(item.id);
    this.waiting.delete(item.id);
    // After a restart nobody waits any more: the card is closed, the run already ended or was interrupted.
    w?.resolve(d);
    return { state };
  }

  /** Whether a turn of this process waits on this attention card. */
  waitsOn(id: string): boolean {
    return this.waiting.has(id);
  }

  /** The run ended or was stopped: every attention wait of it ends, its cards are closed unasked. */
  cancelRun(run_id: string): void {
    for (const [id, w] of [...this.waiting.entries()]) {
      if (w.run_id !== run_id) continue;
      this.waiting.delete(id);
      this.kernel.inbox.resolve(id, 'canceled');
      w.resolve('stopped');
    }
  }

  private stillRunning(run_id: string): boolean {
    return this.kernel.getRun(run_id)?.status === 'running';
  }

  /** Run one hook to its outcome: retried while a person says Retry, `abandoned` on Abandon. */
  async run(run: Run, event: HookEvent, spec: HookSpec): Promise<HookResult> {
    for (let attempt = 1; ; attempt++) {
      if (!this.stillRunning(run.id)) return { kind: 'canceled' };
      const input = spec.tool === 'bash' && spec.timeout_s && spec.input.timeout_s === undefined ? { ...spec.input, timeout_s: spec.timeout_s } : spec.input;
      let outcome: HookOutcome;
      let rowId: string | null = null;
      try {
        const row = this.kernel.submitRow(run.id, {
          tool: concreteWireName(this.kernel, run, spec.tool),
          input,
          origin: 'kernel',
          round: null,
          ...(event === 'stop' ? { stop_hook: true } : {}),
        });
        rowId = row.id;
        this.event(run.id, 'hook_started', { event, tool: spec.tool, row_id: row.id, attempt });
        const ended = await this.waitWithTimeout(row.id, spec.tool === 'bash' ? undefined : spec.timeout_s);
        outcome = ended ? readHookRow(ended, event) : { kind: 'failed', reason: `did not finish within ${spec.timeout_s} s` };
      } catch (e) {
        if (!this.stillRunning(run.id)) return { kind: 'canceled' };
        outcome = { kind: 'failed', reason: (e as Error).message };
      }
      if (!this.stillRunning(run.id)) return { kind: 'canceled' };
      if (outcome.kind !== 'failed') {
        this.event(run.id, 'hook_ended', { event, tool: spec.tool, row_id: rowId, outcome: outcome.kind });
        return outcome;
      }
      const decision = await this.askPerson(run, event, spec, rowId, outcome.reason);
      if (decision === 'stopped') return { kind: 'canceled' };
      if (decision === 'abandon') {
        this.event(run.id, 'hook_abandoned', { event, tool: spec.tool, row_id: rowId });
        return { kind: 'abandoned' };
      }
      this.event(run.id, 'hook_retried', { event, tool: spec.tool, row_id: rowId });
    }
  }

  private waitWithTimeout(row_id: string, timeout_s?: number) {
    const done = this.kernel.waitRow(row_id);
    if (!timeout_s) return done;
    return new Promise<Awaited<typeof done> | null>((resolve, reject) => {
      const t = this.kernel.clock.setTimeout(() => resolve(null), timeout_s * 1000);
      done.then(
        (r) => {
          this.kernel.clock.clearTimeout(t);
          resolve(r);
        },
        (e) => {
          this.kernel.clock.clearTimeout(t);
          reject(e);
        },
      );
    });
  }

  private askPerson(run: Run, event: HookEvent, spec: HookSpec, row_id: string | null, reason: string): Promise<Decision> {
    const id = newId('att');
    const message = `The ${event} hook (${spec.tool}) failed: ${reason}. Retry runs the hook again; Abandon goes on without it${event === 'stop' ? ' (the answer is accepted)' : ''}.`;
    // What Retry would run, shown like an autonomy card's effect: the hook's command, not just its tool name.
    const row = row_id ? this.kernel.getRow(row_id) : null;
    const input = row?.input ?? spec.input;
    const effect: EffectProfile = {
      agent: run.agent,
      tool: row?.tool ?? spec.tool,
      target: targetOf(row ? this.kernel.tools.find(run.id, row) : undefined, input, run.workspace),
      input,
      matched_rules: [],
      workspace: run.workspace,
      mode: run.mode,
    };
    if (row?.runner) effect.runner = row.runner;
    return new Promise<Decision>((resolve) => {
      this.waiting.set(id, { run_id: run.id, resolve });
      this.kernel.inbox.add(
        {
          id,
          kind: 'attention',
          run_id: run.id,
          row_id,
          agent: run.agent,
          tool: spec.tool,
          target: `${event} hook`,
          data: { source: HOOK_SOURCE, message, event, hook: spec, reason, effect },
        },
        `${run.agent ?? 'A run'}: the ${event} hook failed`,
      );
      this.event(run.id, 'hook_failed', { event, tool: spec.tool, row_id, reason, attention_id: id });
    });
  }
}
