// NEXUS as the ACP client of one agent's session. Every permission request and every tool call the agent
// reports is a row through the approval stage (same rules, modes, cards and record as NEXUS's own agents); a
// permission request is answered with the stage's outcome once the row is decided, waiting for a parked card.
// Anything that goes wrong answers "reject": nothing fails open. The agent's fs/* and terminal/* requests are
// rows of NEXUS's own `read`, `write` and `bash` tools: confined to the workspace, its bash in the sandbox.
import { z } from 'zod';
import { client, methods, type ClientApp, type PermissionOption, type RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { Row } from '../../kernel/types.js';
import { ReportedCall, judgedCall, reportedTool } from './tool-calls.js';
import { qualifiedName } from '../../runners/runner-id.js';
import { acpRunner } from './tool-calls.js';
import { Terminals } from './terminals.js';
import { ownCall, refused, type SessionState } from './session-calls.js';
import { log } from '../../log.js';

export type { SessionState } from './session-calls.js';

const GRANTED = (r: Row) => r.state === 'succeeded' || r.state === 'running';
const textOf = (r: Row) => (r.result?.content ?? []).map((c) => c.text).join('\n');

/** The row standing for each tool call id (created by the first report of it: a tool_call or a permission request). */
class CallRows {
  private rows = new Map<string, Promise<Row>>();
  private tools = new Set<string>();
  constructor(private readonly s: SessionState) {}

  decided(call: ReportedCall): Promise<Row> {
    let p = this.rows.get(call.toolCallId);
    if (!p) {
      p = this.submit(call);
      this.rows.set(call.toolCallId, p);
    }
    return p;
  }

  private async submit(call: ReportedCall): Promise<Row> {
    const { kernel, agent, run_id, signal } = this.s;
    const { name, input } = judgedCall(call);
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
      if (u.sessionUpdate === 'tool_call') {
        const call = ReportedCall.safeParse(u);
        if (call.success) void calls.decided(call.data).catch(() => undefined);
      }
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      try {
        const call = ReportedCall.parse(params.toolCall);
        return permissionAnswer(await calls.decided(call), params.options);
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
