// Tools only the kernel plants (origin kernel): never offered to a model; a model row naming them is refused
// at execution. `continuation` carries a planted message into the conversation; `summarize` is in
// compaction.ts; `ask_await` in ask.ts.
import type { ExecutorTool } from '../kernel/types.js';

export const INTERNAL_TOOLS: readonly string[] = ['continuation', 'summarize', 'ask_await'];

export const notForModels = (name: string) => ({
  content: [{ type: 'text' as const, text: `${name} is planted by the kernel; a model cannot call it.` }],
  structuredContent: { code: 'kernel_only' },
  isError: true,
});

export const continuationTool: ExecutorTool = {
  name: 'continuation',
  kernelOnly: true,
  description: 'A message the kernel plants into a run (a person or a module continuing it).',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  target: (input) => {
    const t = (input as { text?: unknown } | null)?.text;
    return typeof t === 'string' ? t.slice(0, 200) : '';
  },
  run: async (input, ctx) => {
    if (ctx.row.origin !== 'kernel') return notForModels('continuation');
    const t = (input as { text?: unknown } | null)?.text;
    if (typeof t !== 'string') return { content: [{ type: 'text', text: 'a continuation needs text' }], isError: true };
    return { content: [{ type: 'text', text: t }] };
  },
};
