// One round (DESIGN §2): the conversation goes to the model with the run's tools; each tool call of the reply
// becomes a model row (hop gate, then the approval stage), in the order the model gave them; granted rows
// run in parallel, parked rows wait; when every row of the fan has ended, their results are recorded as one
// `tool` message — what the model reads in the next round.
import type { Db } from '../store/db.js';
import { ProviderError, type ModelProvider, type ModelToolResult } from '../providers/index.js';
import type { Kernel } from '../kernel/kernel.js';
import { resultText } from '../kernel/results.js';
import type { Row, Run } from '../kernel/types.js';
import { appendMessage, getTurnState, liveMessages, updateMessage, updateTurnState } from '../store/queries/conversation.js';
import { systemPrompt } from './policy.js';
import { concreteWireName, offeredTools } from './run-tools.js';
import { errorMessage } from '../../shared/errors.js';

export interface RoundContext {
  kernel: Kernel;
  /** The agents' own tables (the conversation, turn state, questions): handed over by app.ts. */
  db: Db;
  provider(run: Run): Promise<ModelProvider>;
  /** Aborted when NEXUS closes. */
  shutdown: AbortSignal;
  event(run_id: string, type: string, data?: unknown): void;
  failRun(run_id: string, reason: string): void;
  running(run_id: string): boolean;
}

export async function modelRound(c: RoundContext, run: Run): Promise<void> {
  const st = getTurnState(c.db, run.id)!;
  const round = st.round + 1;
  updateTurnState(c.db, run.id, { round }, c.kernel.clock.now());
  let reply;
  try {
    const provider = await c.provider(run);
    const agent = c.kernel.records.agent(run.agent!)!;
    c.event(run.id, 'model_request', { round });
    reply = await provider.complete({
      system: systemPrompt({ agent: agent.name, instructions: agent.instructions, workspace: run.workspace }),
      messages: liveMessages(c.db, run.id).map((m) => m.message),
      tools: offeredTools(c.kernel, agent, run),
      signal: AbortSignal.any([c.kernel.runSignal(run.id), c.shutdown]),
    });
  } catch (e) {
    if (!c.running(run.id)) return; // stopped: the stop already ended the run
    const reason = e instanceof ProviderError ? `${e.code}: ${e.message}` : errorMessage(e);
    c.failRun(run.id, `The model call failed (round ${round}): ${reason}`);
    return;
  }
  if (!c.running(run.id)) return;
  const now = c.kernel.clock.now();
  updateTurnState(c.db, run.id, { input_tokens: st.input_tokens + reply.usage.input_tokens, output_tokens: st.output_tokens + reply.usage.output_tokens }, now);
  const calls = reply.toolCalls.map((c) => ({ ...c }));
  const message = { role: 'assistant' as const, text: reply.text, ...(calls.length ? { toolCalls: calls } : {}) };
  const messageId = appendMessage(c.db, { run_id: run.id, turn: st.turn, round, message, now });
  c.event(run.id, 'model_reply', {
    round,
    text: reply.text.slice(0, 2000),
    tool_calls: reply.toolCalls.map((c) => c.name),
    stop_reason: reply.stop_reason,
    usage: reply.usage,
  });
  if (!reply.toolCalls.length) return;
  // The fan: every call becomes a model row now, in order, recorded and decided in ONE transaction; each
  // call notes its row, so the results pair with the calls whatever happens to one of them.
  if (!c.running(run.id)) return updateMessage(c.db, messageId, message);
  const specs = calls.map((call) => ({ tool: concreteWireName(c.kernel, run, call.name), input: call.input, origin: 'model' as const, round }));
  const recorded = () => c.kernel.listRows(run.id).filter((r) => r.origin === 'model' && r.round === round).length;
  try {
    c.kernel.submitRows(run.id, specs).forEach((row, i) => (calls[i].row_id = row.id));
  } catch (e) {
    // A call the kernel refuses before deciding (say, no tool name) rolls the whole fan back: then each call
    // is submitted alone, so only that call is refused and the model reads why. If the fan was committed
    // (an effect after the commit threw), nothing is submitted twice: collectFan pairs the rows in order.
    if (recorded() > 0) c.event(run.id, 'row_refused', { round, error: errorMessage(e) });
    else {
      for (const [i, call] of calls.entries()) {
        if (!c.running(run.id)) break;
        try {
          call.row_id = c.kernel.submitRow(run.id, specs[i]).id;
        } catch (err) {
          if (!c.running(run.id)) break;
          c.event(run.id, 'row_refused', { round, tool: call.name, error: errorMessage(err) });
        }
      }
    }
  }
  updateMessage(c.db, messageId, message);
}

/** Wait for every row of the fan, then record their results as one tool message. */
export async function collectFan(c: RoundContext, run: Run, round: number, calls: Array<{ id: string; name: string; row_id?: string }>): Promise<void> {
  // Calls note their rows; a reply recorded just before a crash may not have, then the round's rows pair in order.
  const ofRound = c.kernel.listRows(run.id).filter((r) => r.origin === 'model' && r.round === round);
  const noted = calls.some((c) => c.row_id);
  const rowIds = calls.map((c, i) => (noted ? c.row_id : ofRound[i]?.id));
  let ended: Array<Row | null>;
  try {
    ended = await Promise.all(rowIds.map((id) => (id ? c.kernel.waitRow(id) : Promise.resolve(null))));
  } catch (e) {
    if (!c.running(run.id)) return;
    throw e;
  }
  const results: ModelToolResult[] = calls.map((c, i) => {
    const row = ended[i];
    if (!row) return { id: c.id, name: c.name, text: 'This tool call was not recorded, so it was not performed.', isError: true };
    const text = row.result ? resultText(row.result) : row.error ? `${row.error.code}: ${row.error.detail}` : '(no result)';
    return { id: c.id, name: c.name, text, ...(row.state !== 'succeeded' || row.result?.isError ? { isError: true } : {}) };
  });
  const st = getTurnState(c.db, run.id)!;
  appendMessage(c.db, { run_id: run.id, turn: st.turn, round, message: { role: 'tool', results }, now: c.kernel.clock.now() });
  c.event(run.id, 'fan_ended', { round, rows: ended.filter((r): r is Row => r !== null).map((r) => ({ row_id: r.id, tool: r.tool, state: r.state })) });
}
