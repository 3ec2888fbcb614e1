// NEXUS as the ACP client of one agent's session. Every permission request and every tool call the agent
// reports is a row through the approval stage (same rules, modes, cards and record as NEXUS's own agents); a
// permission request is answered with the stage's outcome once the row is decided, waiting for a parked card.
// Anything that goes wrong answers "reject": nothing fails open. The agent's fs/* and terminal/* requests are
// rows of NEXUS's own `read`, `write` and `bash` tools: confined to the workspace, its bash in the sandbox.
import { z } from 'zod';
import { client, methods, type ClientApp, type PermissionOption, type RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { Row } from '../../kernel/types.js';
import { ReportedCall, judgedCall, record, reportedTool } from './tool-calls.js';
import { qualifiedName } from '../../runners/runner-id.js';
import { acpRunner } from './tool-calls.js';
import { Terminals } from './terminals.js';
import { ownCall, refused, type SessionState } from './session-calls.js';
import { log } from '../../log.js';

export type { SessionState } from './session-calls.js';

const GRANTED = (r: Row) => r.state === 'succeeded' || r.state === 'running';
const textOf = (r: Row) => (r.result?.content ?? []).map((c) => c.text).join('\n');

/** Has the agent said what the call runs? Claude's adapter reports a Bash call as the model's stream starts,
 * with an empty `rawInput` and the title "Terminal"; its command follows in a `tool_call_update`. */
const hasInput = (c: ReportedCall) => Object.keys(record(c.rawInput)).length > 0;
const STARTED = new Set(['in_progress', 'completed', 'failed']);

/** The rows standing for each tool call. A reported call is judged once the agent has said what it runs (its
 * input, or it has started); a permission request is always judged on the input it asks for, so a row is keyed
 * by the call's id and the judged input: the card and the rules read the command the agent will run, never an
 * earlier, emptier report of it. */
class CallRows {
  private rows = new Map<string, Promise<Row>>();
  private known = new Map<string, ReportedCall>();
  private judged = new Set<string>();
  private tools = new Set<string>();
  constructor(private readonly s: SessionState) {}

  /** The call as the agent has described it so far (each report refines the last). */
  merge(call: ReportedCall): ReportedCall {
    const prev = this.known.get(call.toolCallId);
    const defined = Object.fromEntries(Object.entries(call).filter(([, v]) => v !== undefined && v !== null));
    const merged = ReportedCall.parse({ ...prev, ...defined });
    this.known.set(call.toolCallId, merged);
    return merged;
  }

  /** A tool_call / tool_call_update the agent reports: judged the first time it says what it runs. */
  reported(call: ReportedCall): void {
    const merged = this.merge(call);
    if (this.judged.has(merged.toolCallId)) return;
    if (!hasInput(merged) && !STARTED.has(merged.status ?? '')) return;
    void this.decided(merged).catch(() => undefined);
  }

  decided(call: ReportedCall): Promise<Row> {
    const judged = judgedCall(call);
    const key = `${call.toolCallId}\u0000${JSON.stringify(judged.input)}`;
    let p = this.rows.get(key);
    if (!p) {
      p = this.submit(judged);
      this.rows.set(key, p);
      this.judged.add(call.toolCallId);
    }
    return p;
  }

  private async submit({ name, input }: { name: string; input: Record<string, unknown> }): Promise<Row> {
    const { kernel, agent, run_id, signal } = this.s;
    if (!this.tools.has(name)) {
      kernel.tools.addRunTools(run_id, [reportedTool(agent, name)]);
      this.tools.add(name);
    }
    const row = kernel.submitRow(run_id, { tool: qualifiedName(name, acpRunner(agent)), input, origin: 'model' });
    return kernel.waitRow(row.id, { signal });
  }
}

const pick = (options: PermissionOption[], kinds: string[]) => kinds.map((k) => options.find((o) => o.kind === k)).find((o) => o !== undefined);

/** The answer to a permission request for a decided row: allow once (never "always": every call asks NEXUS), or reject. */
export function permissionAnswer(row: Row | null, options: PermissionOption[]): RequestPermissionResponse {
  const allow = row && GRANTED(row) ? pick(options, ['allow_once']) : undefined;
  const chosen = allow ?? pick(options, ['reject_once', 'reject_always']);
  return chosen ? { outcome: { outcome: 'selected', optionId: chosen.optionId } } : { outcome: { outcome: 'cancelled' } };
}

const ReadParams = z.object({ path: z.string().min(1), line: z.number().int().positive().nullish(), limit: z.number().int().nonnegative().nullish() });
const WriteParams = z.object({ path: z.string().min(1), content: z.string() });

export function nexusClient(s: SessionState): ClientApp {
  const calls = new CallRows(s);
  const terminals = new Terminals(s);
  return client({ name: 'nexus' })
    .onNotification(methods.client.session.update, ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') s.answer.push(u.content.text);
      if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
        const call = ReportedCall.safeParse(u);
        if (call.success) calls.reported(call.data);
      }
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      try {
        const call = calls.merge(ReportedCall.parse(params.toolCall));
        const row = await calls.decided(call);
        // ACP's reject has no room for the reason: an agent that queues prompts hears it as the next line, sent
        // before the answer so its model reads it with the refusal.
        if (row.error?.code === 'approval_denied' && s.tell) s.tell(`NEXUS denied ${call.title ?? 'that call'}: ${row.error.detail}`);
        return permissionAnswer(row, params.options);
      } catch (e) {
        log.error('an ACP permission request was rejected because NEXUS could not decide it', e);
        return permissionAnswer(null, params.options);
      }
    })
    .onRequest(methods.client.fs.readTextFile, async ({ params }) => {
      const p = ReadParams.parse(params);
      const row = await ownCall(s, 'read', { path: p.path, ...(p.line ? { offset: p.line } : {}), ...(p.limit != null ? { limit: p.limit } : {}) });
      if (row.state !== 'succeeded') throw refused(`NEXUS refused to read ${p.path}: ${row.error?.detail ?? row.state}`);
      return { content: textOf(row) };
    })
    .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
      const p = WriteParams.parse(params);
      const row = await ownCall(s, 'write', { path: p.path, content: p.content });
      if (row.state !== 'succeeded') throw refused(`NEXUS refused to write ${p.path}: ${row.error?.detail ?? row.state}`);
      return {};
    })
    .onRequest(methods.client.terminal.create, ({ params }) => terminals.create(params))
    .onRequest(methods.client.terminal.output, ({ params }) => terminals.output(params.terminalId))
    .onRequest(methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params.terminalId))
    .onRequest(methods.client.terminal.kill, ({ params }) => terminals.kill(params.terminalId))
    .onRequest(methods.client.terminal.release, ({ params }) => terminals.release(params.terminalId));
}
