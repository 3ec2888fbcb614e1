// Compaction (DESIGN §4): past the token budget, pre_compact hooks, then the SUMMARIZER kernel row (which
// asks the model), then post_compact hooks, in that order; the model then reads the summary + recent messages.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRunEvents } from '../store/queries/events.js';
import { allMessages } from '../store/queries/conversation.js';
import { SUMMARY_PREFIX, SUMMARY_SYSTEM, keepFrom } from './compaction.js';
import { turnsHarness, type TurnsHarness } from '../../test/support/turns.js';
import type { StoredMessage } from '../store/queries/conversation.js';

let h: TurnsHarness;
afterEach(async () => h?.cleanup());

const BIG = 'x'.repeat(600);

describe('compaction', () => {
  it('pre_compact hooks, then the summarizer row, then post_compact hooks, in order; the model reads the summary', async () => {
    let round = 0;
    h = await turnsHarness({
      env: { NEXUS_CONTEXT_BUDGET_TOKENS: '300' },
      script: (req) => {
        if (req.system === SUMMARY_SYSTEM) return { text: `SUMMARY: ${req.messages[0]!.text.includes('step-1') ? 'did step-1 and step-2' : '?'}` };
        round++;
        if (round <= 3) return { text: `step-${round}`, toolCalls: [{ name: 'bash', input: { command: `echo step-${round} ${BIG}` } }] };
        return { text: 'finished' };
      },
    });
    h.agent({
      name: 'longtalker',
      lifecycle_hooks: {
        pre_compact: [{ tool: 'bash', input: { command: 'echo pre >> order.txt' } }],
        post_compact: [{ tool: 'bash', input: { command: 'echo post >> order.txt' } }],
      },
    });
    const run = h.turns.startTurn({ agent: 'longtalker', prompt: 'work in steps' });
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'finished' });

    // Order: each compaction is pre hook row, summarizer row, post hook row, all kernel rows.
    const kernelRows = h.nexus.kernel.listRows(run.id).filter((r) => r.origin === 'kernel');
    expect(kernelRows.length).toBeGreaterThanOrEqual(3);
    const seq = kernelRows.map((r) => (r.tool === 'summarize' ? 'summarize' : String((r.input as { command: string }).command)));
    expect(seq.slice(0, 3)).toEqual(['echo pre >> order.txt', 'summarize', 'echo post >> order.txt']);
    expect(kernelRows.every((r) => r.state === 'succeeded' && r.granted_by === 'origin')).toBe(true);
    expect(readFileSync(join(ended.workspace, 'order.txt'), 'utf8').startsWith('pre\npost\n')).toBe(true);

    // The summarizer asked the model; the next model request reads the summary, not the compacted messages.
    const sumReq = h.model.requests.findIndex((r) => r.system === SUMMARY_SYSTEM);
    expect(sumReq).toBeGreaterThan(0);
    const after = h.model.requests[sumReq + 1]!;
    expect(after.messages[0]!.text).toContain(SUMMARY_PREFIX);
    expect(after.messages[0]!.text).toContain('SUMMARY: did step-1');
    expect(after.transcript).not.toContain('work in steps');
    // Nothing is lost from the record: compacted messages stay in the store.
    const all = allMessages(h.nexus.db, run.id);
    expect(all.some((m) => m.compacted && m.kind === 'prompt')).toBe(true);
    const ev = listRunEvents(h.nexus.db, run.id).map((e) => e.type);
    expect(ev.indexOf('compaction_started')).toBeLessThan(ev.indexOf('compacted'));
  });

  it('keepFrom never separates tool results from the call that made them', () => {
    const m = (id: number, role: 'user' | 'assistant' | 'tool'): StoredMessage => ({
      id,
      run_id: 'r',
      turn: 1,
      round: null,
      kind: 'message',
      compacted: false,
      created_at: '',
      message:
        role === 'tool'
          ? { role, results: [{ id: 'c', name: 'bash', text: BIG }] }
          : role === 'assistant'
            ? { role, text: BIG, toolCalls: [{ id: 'c', name: 'bash', input: {} }] }
            : { role, text: BIG },
    });
    const live = [m(1, 'user'), m(2, 'assistant'), m(3, 'tool'), m(4, 'assistant'), m(5, 'tool')];
    const from = keepFrom(live, 100)!;
    expect(live.find((x) => x.id === from)!.message.role).toBe('assistant');
    expect(keepFrom(live.slice(0, 2), 10)).toBeNull();
  });
});
