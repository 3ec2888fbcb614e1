// The `ask` tool: the model asks the person. The call (a model row) crosses the stage like any other; when
// it runs, the kernel plants the await — a kernel row `ask_await` (seed 000: "the ask await" is a kernel
// row, granted by its origin unless a rule naming kernel rows opts it back in) whose execution is an inbox
// card of kind `question`, answered with inboxAnswer. The answer is the tool result the next round reads.
// A stop cancels both rows and withdraws the card.
import type { Db } from '../store/db.js';
import type { Kernel } from '../kernel/kernel.js';
import { newId } from '../kernel/ids.js';
import { KernelError } from '../kernel/errors.js';
import type { ExecutorTool } from '../kernel/types.js';
import { resultText } from '../kernel/results.js';
import { notForModels } from './internal-tools.js';
import { answerQuestion, cancelQuestion, getQuestion, insertQuestion } from '../store/queries/conversation.js';

const questionOf = (input: unknown): string => {
  const q = (input as { question?: unknown } | null)?.question;
  return typeof q === 'string' ? q.slice(0, 200) : '(no question)';
};

export class Questions {
  private waiting = new Map<string, (answer: string) => void>();
  /** Answers given on the `ask` call's own autonomy card (approve and answer in one step), by that row's id. */
  private answeredFirst = new Map<string, { text: string; by: string }>();

  constructor(
    private readonly kernel: Kernel,
    private readonly db: Db,
    private readonly event: (run_id: string, type: string, data?: unknown) => void,
  ) {
    kernel.inbox.register('question', {
      answer: (item, o) => {
        const text = o.text ?? '';
        if (!answerQuestion(db, { id: item.id, answer: text, now: kernel.clock.now() })) {
          // The question table and the card disagree only if the process died mid-way: close the card.
          kernel.inbox.resolve(item.id, 'canceled', o.by);
          return { state: 'canceled' };
        }
        kernel.inbox.resolve(item.id, 'answered', o.by);
        this.event(item.run_id, 'question_answered', { question_id: item.id, by: o.by });
        const w = this.waiting.get(item.id);
        this.waiting.delete(item.id);
        w?.(text);
        return { state: 'answered' };
      },
    });
    // Under mode ask the `ask` call parks first (an autonomy card): answering it there approves the call and
    // answers its question in one step, so no second card asks the same thing.
    kernel.inbox.extend('autonomy', {
      answer: (item, o) => {
        const text = (o.text ?? '').trim();
        if (!text) throw new KernelError('invalid_input', 'An answer needs text: `nexus answer ID TEXT`.');
        const row_id = item.row_id ?? item.id;
        this.answeredFirst.set(row_id, { text, by: o.by });
        try {
          kernel.approve(row_id, { by: o.by });
        } catch (e) {
          this.answeredFirst.delete(row_id);
          throw e;
        }
        return { state: 'answered' };
      },
    });
  }

  readonly tool: ExecutorTool = {
    name: 'ask',
    description: 'Ask the person a question and wait for the answer (the answer is the result). Use it when you need a decision or information only they have.',
    inputSchema: { type: 'object', properties: { question: { type: 'string', description: 'The question, self-contained.' } }, required: ['question'] },
    target: questionOf,
    run: async (input, ctx) => {
      const q = (input as { question?: unknown } | null)?.question;
      if (typeof q !== 'string' || !q.trim()) return { content: [{ type: 'text', text: 'ask needs a "question" (text).' }], isError: true };
      const planted = this.kernel.submitRow(ctx.run.id, { tool: 'ask_await', input: { question: q, asked_by: ctx.row.id }, origin: 'kernel', round: null });
      const ended = await this.kernel.waitRow(planted.id);
      if (ended.state === 'succeeded' && ended.result) return ended.result;
      const why = ended.result ? resultText(ended.result) : `${ended.error?.code ?? ended.state}: ${ended.error?.detail ?? ''}`;
      return {
        content: [{ type: 'text', text: `The question could not be put to the person: ${why}` }],
        structuredContent: { code: ended.error?.code ?? ended.state },
        isError: true,
      };
    },
  };

  /** The await the kernel plants: the question card, open until answered or the run stops. */
  readonly awaitTool: ExecutorTool = {
    name: 'ask_await',
    kernelOnly: true,
    description: "The kernel's wait for a person's answer to an agent's question.",
    inputSchema: { type: 'object', properties: { question: { type: 'string' }, asked_by: { type: 'string' } }, required: ['question'] },
    target: questionOf,
    run: (input, ctx) => {
      if (ctx.row.origin !== 'kernel') return Promise.resolve(notForModels('ask_await'));
      const { question: q, asked_by } = (input ?? {}) as { question?: unknown; asked_by?: unknown };
      if (typeof q !== 'string' || !q.trim())
        return Promise.resolve({ content: [{ type: 'text', text: 'ask_await needs a "question" (text).' }], isError: true });
      const id = newId('q');
      const k = this.kernel;
      insertQuestion(this.db, { id, run_id: ctx.run.id, row_id: ctx.row.id, question: q, now: k.clock.now() });
      const first = typeof asked_by === 'string' ? this.answeredFirst.get(asked_by) : undefined;
      if (first && typeof asked_by === 'string') {
        // Answered already, on the call's own card: recorded as asked and answered, no question card.
        this.answeredFirst.delete(asked_by);
        answerQuestion(this.db, { id, answer: first.text, now: k.clock.now() });
        this.event(ctx.run.id, 'question_asked', { question_id: id, row_id: ctx.row.id, asked_by, question: q });
        this.event(ctx.run.id, 'question_answered', { question_id: id, by: first.by, on: 'autonomy_card' });
        return Promise.resolve({ content: [{ type: 'text', text: first.text }], structuredContent: { question_id: id, answered: true } });
      }
      return new Promise((resolve) => {
        const onAbort = () => {
          this.waiting.delete(id);
          cancelQuestion(this.db, id, k.clock.now());
          k.inbox.resolve(id, 'canceled');
          resolve({
            content: [{ type: 'text', text: 'The question was withdrawn: the run was stopped.' }],
            structuredContent: { code: 'canceled' },
            isError: true,
          });
        };
        this.waiting.set(id, (answer) => {
          ctx.signal.removeEventListener('abort', onAbort);
          resolve({ content: [{ type: 'text', text: answer }], structuredContent: { question_id: id, answered: true } });
        });
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        k.inbox.add(
          {
            id,
            kind: 'question',
            run_id: ctx.run.id,
            row_id: null,
            agent: ctx.run.agent,
            tool: 'ask',
            target: q.slice(0, 200),
            data: { message: q, question: q, row_id: ctx.row.id, asked_by },
          },
          `${ctx.run.agent ?? 'A run'} asks: ${q.slice(0, 120)}`,
        );
        this.event(ctx.run.id, 'question_asked', { question_id: id, row_id: ctx.row.id, asked_by, question: q });
        if (ctx.signal.aborted) onAbort();
      });
    },
  };

  /** Whether a call of this process waits on this question. */
  waitsOn(id: string): boolean {
    return this.waiting.has(id);
  }

  get(id: string) {
    return getQuestion(this.db, id);
  }
}
