// The tool results a model reads when the kernel, not the tool, ends a row. The expiry text is exact (seed 000).
import { APPROVAL_EXPIRED_TEXT, type ToolResult } from '../../shared/types.js';

const text = (t: string, structured?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(structured ? { structuredContent: structured } : {}),
  isError: true,
});

export const deniedByStage = (detail: string): ToolResult =>
  text(detail ? `The approval stage denied this tool call: ${detail}` : 'The approval stage denied this tool call.', { code: 'approval_denied', detail });

export const deniedByPerson = (reason: string | undefined): ToolResult =>
  text(reason ? `A person denied this tool call: ${reason}` : 'A person denied this tool call.', { code: 'approval_denied', detail: reason ?? '' });

/** Exactly the seed's sentence, nothing else: the next round reads it as is. */
export const expired = (): ToolResult => ({ content: [{ type: 'text', text: APPROVAL_EXPIRED_TEXT }], isError: true });

export const canceled = (why: string): ToolResult => text(`This tool call was canceled: ${why}.`, { code: 'canceled' });

export const interrupted = (): ToolResult =>
  text('NEXUS stopped while this tool call was in flight; it was not re-run. Run it again if it is still needed.', { code: 'interrupted' });

export const stageError = (message: string): ToolResult =>
  text(`The approval stage could not decide this call, so it was refused: ${message}`, { code: 'approval_error' });

/** A failure the model reads: the sentence, and its code (with any facts it names) as structuredContent. */
export const toolError = (message: string, code = 'tool_error', extra: Record<string, unknown> = {}): ToolResult => text(message, { code, ...extra });

/** What a model reads for a result: the text content, then the structuredContent JSON on its own line (DESIGN §3). */
export function resultText(r: ToolResult): string {
  const t = r.content.map((c) => c.text).join('\n');
  return r.structuredContent ? `${t}\n${JSON.stringify(r.structuredContent)}` : t;
}
