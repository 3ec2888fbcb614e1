// A connected client's tool call (its PreToolUse hook, through the control socket) crossing NEXUS's approval stage:
//
//   Stop all engaged → deny (its sentence) | the agent of client+project, the run of the session (frozen at its
//   first call) → the call mapped (tool-map.ts) → rows submitted as model rows (the hop gate, then the stage) →
//   granted: allow (the client runs it; the row records "executed by the client") | refused: deny with the reason
//   | parked: a card in the inbox; the hook waits (long poll) for Approve / Deny, until just before the client's
//   own hook timeout, when NEXUS expires the card and answers deny: a card never outlives the call it asks about.
//   If the hook goes away first (the client gave up), the card is closed as denied.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Kernel } from '../kernel/kernel.js';
import type { Clock } from '../kernel/clock.js';
import type { Row, Run } from '../kernel/types.js';
import { STOP_ALL_REASON } from '../governance/service.js';
import type { ExternalAnswer, HookEvent } from '../../shared/api/external.js';
import { mapToolCall, type ClientName } from './tool-map.js';
import { clientCall } from './client-calls.js';
import { Refusal, agentFor, createSessionRun, findSessionRun, realFolder, sessionKey } from './session-runs.js';
import { answerFor, expiredSentence, HOOK_GONE, STOP_ALL_SENTENCE } from './answers.js';
import { namesDataDir } from './client-wall.js';
import { escapeOf, requestEscapeOf } from '../../shared/rules/escape.js';

type Answer = z.infer<typeof ExternalAnswer>;
type Event = z.infer<typeof HookEvent>;

/** The wait when the hook does not say how long its client waits: just under both clients' default 600 s. */
export const DEFAULT_WAIT_MS = 570_000;
/** A PermissionRequest that follows a PreToolUse NEXUS already allowed (same session, tool, input) is that call. */
const GRANT_MEMORY_MS = 10 * 60_000;

export interface ToolUseRequest {
  client: ClientName;
  event: Event;
  wait_ms?: number;
  project_dir?: string;
}

/** What the service needs: the kernel, its clock, and whether Stop all is engaged (governance's answer). */
export interface ExternalServicePorts {
  kernel: Kernel;
  clock: Clock;
  stopAll(): boolean;
  /** NEXUS's data dir: a client call that names a path in it is refused. */
  dataDir?: string;
  /** Why the client's own wall is not in place for this project (client-wall.ts), or null. */
  wallGap?(client: ClientName, project: string, ev: Event): string | null;
}

export class ExternalService {
  private readonly kernel: Kernel;
  private readonly grants = new Map<string, number>();

  constructor(private readonly ports: ExternalServicePorts) {
    this.kernel = ports.kernel;
  }

  /** `viaHook`: the call came with the hook's credential (the real hook): the client's wall is checked. */
  async toolUse(req: ToolUseRequest, signal?: AbortSignal, viaHook = false): Promise<Answer> {
    const ev = req.event;
    const key = sessionKey(req.client, ev.session_id);
    const asked = requestEscapeOf(req.client, ev.hook_event_name, ev.tool_name);
    // An escalation is never "the call NEXUS already allowed": leaving the sandbox is a new question, for a person.
    if (ev.hook_event_name === 'PermissionRequest' && !asked && this.recentlyGranted(req.client, ev)) {
      return { decision: 'allow', reason: 'NEXUS already allowed this call.', by: 'nexus', agent: null, run_id: null, row_ids: [] };
    }
    let run: Run | null = null;
    try {
      if (this.ports.stopAll()) {
        run = findSessionRun(this.kernel, key);
        if (run) this.kernel.records.recordRunEvent(run.id, 'client_call_refused', { tool: ev.tool_name, by: 'stop_all' }, this.ports.clock.now());
        return { decision: 'deny', reason: STOP_ALL_SENTENCE, by: 'stop_all', agent: run?.agent ?? null, run_id: run?.id ?? null, row_ids: [] };
      }
      if (viaHook && this.ports.wallGap) {
        const gap = this.ports.wallGap(req.client, req.project_dir ?? ev.cwd, ev);
        if (gap) throw new Refusal(gap, 'nexus');
      }
      if (this.ports.dataDir && namesDataDir(ev.tool_input, this.ports.dataDir))
        throw new Refusal("NEXUS refused this call: it names a path inside NEXUS's data dir, which a client's calls never reach.", 'nexus');
      run = this.sessionRun(req, key);
      const call = clientCall(req.client, ev.tool_name, ev.tool_input);
      const mapped = mapToolCall(call.name, call.input);
      if (!mapped.ok) throw new Refusal(`NEXUS refused this call: ${mapped.reason}`, 'nexus');
      const escape = escapeOf(ev.tool_name, ev.tool_input) ?? asked ?? undefined;
      const waitMs = req.wait_ms ?? DEFAULT_WAIT_MS;
      // A card waits as long as the hook does: its deadline (row, card, event) is the client's, not 24 h.
      const rows = this.kernel.submitRows(
        run.id,
        mapped.calls.map((c) => ({ tool: c.tool, input: c.input, origin: 'model' as const, park_ms: waitMs, ...(escape ? { escape } : {}) })),
      );
      const ended = await this.settle(rows, waitMs, signal);
      const answer = answerFor(ended, { waitMs, parked: rows.filter((r) => r.state === 'needs_approval').map((r) => r.id) });
      if (answer.decision === 'allow') this.remember(req.client, ev);
      return { ...answer, agent: run.agent, run_id: run.id, row_ids: rows.map((r) => r.id) };
    } catch (e) {
      if (e instanceof Refusal) return { decision: 'deny', reason: e.message, by: e.by, agent: run?.agent ?? null, run_id: run?.id ?? null, row_ids: [] };
      throw e;
    }
  }

  /** The session's run: found, re-opened after Stop all, or created now (its approval frozen now). */
  private sessionRun(req: ToolUseRequest, key: string): Run {
    const existing = findSessionRun(this.kernel, key);
    if (existing) {
      if (existing.status === 'running') return existing;
      // Stop all ended it; Resume lifts Stop all for new work, and this session's next call is new work. A
      // session that ended (the client said so, or it sat idle) and calls again was resumed by its person.
      if (existing.error === STOP_ALL_REASON || existing.status === 'succeeded') return this.kernel.reopenRun(existing.id);
      throw new Refusal(
        `NEXUS refused this call: this ${req.client} session's run ${existing.id} was ${existing.status === 'canceled' ? 'stopped' : 'ended'} in NEXUS (${existing.error ?? existing.status}). Start a new session.`,
        'nexus',
      );
    }
    const folder = realFolder(req.event.cwd, 'working folder');
    const project = req.project_dir ? realFolder(req.project_dir, 'project folder') : folder;
    const agent = agentFor(this.kernel, req.client, project);
    return createSessionRun(this.kernel, agent, key, folder, req.client, req.event.session_id);
  }

  /**
   * Wait for every parked row to end. A row still parked at the deadline is expired (its card closes); if the
   * hook went away, it is denied as abandoned. Once one row of the call is refused, the others' cards close too.
   */
  private async settle(rows: Row[], waitMs: number, signal?: AbortSignal): Promise<Row[]> {
    const out: Row[] = [];
    const deadline = Date.now() + waitMs + 1000;
    for (const row of rows) {
      if (row.state !== 'needs_approval') {
        out.push(row);
        continue;
      }
      if (out.some(refused)) {
        out.push(this.closeParked(row.id, 'Another part of the same call was refused, so this part was not asked.'));
        continue;
      }
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), Math.max(0, deadline - Date.now()));
      const onGone = () => ac.abort();
      signal?.addEventListener('abort', onGone, { once: true });
      if (signal?.aborted) ac.abort();
      try {
        const r = await this.kernel.waitRow(row.id, { signal: ac.signal });
        if (r.state !== 'needs_approval') out.push(r);
        else if (signal?.aborted) out.push(this.closeParked(row.id, HOOK_GONE));
        else out.push(this.kernel.expire(row.id) ?? this.kernel.getRow(row.id)!);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onGone);
      }
    }
    return out;
  }

  private closeParked(row_id: string, reason: string): Row {
    try {
      return this.kernel.deny(row_id, { by: 'nexus', reason });
    } catch {
      return this.kernel.getRow(row_id)!; // someone answered it in between: that answer stands
    }
  }

  private grantKey(client: ClientName, ev: Event): string {
    const input: Record<string, unknown> =
      ev.tool_input && typeof ev.tool_input === 'object' && !Array.isArray(ev.tool_input)
        ? { ...(ev.tool_input as Record<string, unknown>) }
        : { value: ev.tool_input };
    delete input.description; // Codex's PermissionRequest adds the model's justification here
    return createHash('sha256')
      .update(JSON.stringify([client, ev.session_id, ev.tool_name, input]))
      .digest('hex');
  }
  private remember(client: ClientName, ev: Event): void {
    const now = Date.now();
    for (const [k, t] of this.grants) if (now - t > GRANT_MEMORY_MS) this.grants.delete(k);
    this.grants.set(this.grantKey(client, ev), now);
  }
  private recentlyGranted(client: ClientName, ev: Event): boolean {
    const t = this.grants.get(this.grantKey(client, ev));
    return t !== undefined && Date.now() - t <= GRANT_MEMORY_MS;
  }
}

const refused = (r: Row) => r.state !== 'running' && r.state !== 'succeeded';
export { expiredSentence };
