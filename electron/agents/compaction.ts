// Compaction (DESIGN §4): when the conversation passes the agent's token budget (~4 chars/token), the
// pre_compact hooks run, then a SUMMARIZER kernel row (which asks the model to summarize the older messages),
// then the post_compact hooks, in that order; the conversation becomes the summary + the recent messages.
// The older messages stay in the store (compacted = 1) for the record.
import type { Db } from '../store/db.js';
import type { ModelProvider } from '../providers/types.js';
import type { Kernel } from '../kernel/kernel.js';
import type { ExecutorTool, Run } from '../kernel/types.js';
import { compactMessages, getTurnState, liveMessages, updateTurnState, type StoredMessage } from '../store/queries/conversation.js';
import type { HookRunner } from './hooks.js';
import { notForModels } from './internal-tools.js';
import { estimateTokens } from './policy.js';

export const SUMMARY_SYSTEM =
  'Summarize the conversation below for the agent that will continue it: the task, what was done (tool calls and their results that matter), decisions, open questions and what remains. Be concise and factual; keep names, paths, codes and numbers exactly.';

export const SUMMARY_PREFIX = 'Summary of the earlier conversation (older messages were compacted):';

/** The id of the first message to keep, or null when there is nothing worth summarizing. */
export function keepFrom(live: readonly StoredMessage[], budget: number): number | null {
  if (live.length < 3) return null;
  let i = live.length;
  let kept = 0;
  while (i > 1) {
    const t = estimateTokens('', [live[i - 1]!.message]);
    if (kept > 0 && kept + t > budget / 2) break;
    kept += t;
    i--;
  }
  // A tool message must stay with the assistant message that made its calls.
  while (i > 0 && live[i]!.message.role === 'tool') i--;
  if (i < 2) return null;
  return live[i]!.id;
}

function transcript(msgs: readonly StoredMessage[]): string {
  return msgs
    .map(({ message: m }) => {
      if (m.role === 'user') return `USER: ${m.text}`;
      if (m.role === 'assistant')
        return `ASSISTANT: ${m.text}${m.toolCalls?.length ? `\n  calls: ${m.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.input)}`).join('; ')}` : ''}`;
      return m.results.map((r) => `RESULT of ${r.name}${r.isError ? ' (error)' : ''}: ${r.text}`).join('\n');
    })
    .join('\n\n');
}

export class Compactor {
  constructor(
    private readonly kernel: Kernel,
    private readonly db: Db,
    private readonly event: (run_id: string, type: string, data?: unknown) => void,
    private readonly provider: (run: Run) => Promise<ModelProvider>,
    private readonly hooks: HookRunner,
  ) {}

  readonly tool: ExecutorTool = {
    name: 'summarize',
    kernelOnly: true,
    description: "Summarize a run's older messages (planted by the kernel when the conversation passes its budget).",
    inputSchema: { type: 'object', properties: { keep_from: { type: 'number' }, messages: { type: 'number' } }, required: ['keep_from'] },
    target: (input) => `messages before #${String((input as { keep_from?: unknown } | null)?.keep_from ?? '?')}`,
    run: async (input, ctx) => {
      if (ctx.row.origin !== 'kernel') return notForModels('summarize');
      const from = (input as { keep_from?: unknown } | null)?.keep_from;
      if (typeof from !== 'number') return { content: [{ type: 'text', text: 'summarize needs keep_from' }], isError: true };
      const older = liveMessages(this.db, ctx.run.id).filter((m) => m.id < from);
      const provider = await this.provider(ctx.run);
      const reply = await provider.complete({ system: SUMMARY_SYSTEM, messages: [{ role: 'user', text: transcript(older) }], tools: [], signal: ctx.signal });
      if (!reply.text.trim())
        return { content: [{ type: 'text', text: 'The model returned an empty summary.' }], structuredContent: { code: 'empty_summary' }, isError: true };
      return { content: [{ type: 'text', text: reply.text }], structuredContent: { summarized: older.length } };
    },
  };

  /** 'ok' (compacted or not needed), 'canceled' (the run stopped), or a failure reason (the run fails). */
  async maybeCompact(run: Run, budget: number): Promise<'ok' | 'canceled' | { failed: string }> {
    const live = liveMessages(this.db, run.id);
    const tokens = estimateTokens(
      '',
      live.map((m) => m.message),
    );
    if (tokens <= budget) return 'ok';
    const from = keepFrom(live, budget);
    if (from === null) return 'ok';
    const older = live.filter((m) => m.id < from).length;
    this.event(run.id, 'compaction_started', { tokens, budget, messages: older });
    for (const spec of run.hooks.pre_compact ?? []) if ((await this.hooks.run(run, 'pre_compact', spec)).kind === 'canceled') return 'canceled';
    const stillRunning = () => this.kernel.getRun(run.id)?.status === 'running';
    if (!stillRunning()) return 'canceled';
    const row = await this.kernel.waitRow(
      this.kernel.submitRow(run.id, { tool: 'summarize', input: { keep_from: from, messages: older }, origin: 'kernel', round: null }).id,
    );
    if (!stillRunning() || row.state === 'canceled') return 'canceled';
    if (row.state !== 'succeeded' || !row.result)
      return { failed: `The summarizer failed: ${row.error?.code ?? row.state}: ${row.error?.detail ?? ''}`.trim() };
    const summary = row.result.content.map((c) => c.text).join('\n');
    const st = getTurnState(this.db, run.id)!;
    compactMessages(this.db, {
      run_id: run.id,
      keepFrom: from,
      summary: { role: 'user', text: `${SUMMARY_PREFIX}\n${summary}` },
      turn: st.turn,
      now: this.kernel.clock.now(),
    });
    updateTurnState(this.db, run.id, { compactions: st.compactions + 1 }, this.kernel.clock.now());
    this.event(run.id, 'compacted', {
      row_id: row.id,
      messages: older,
      tokens_before: tokens,
      tokens_after: estimateTokens(
        '',
        liveMessages(this.db, run.id).map((m) => m.message),
      ),
    });
    for (const spec of run.hooks.post_compact ?? []) if ((await this.hooks.run(run, 'post_compact', spec)).kind === 'canceled') return 'canceled';
    return 'ok';
  }
}
