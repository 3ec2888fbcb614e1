// A run's conversation, provider-neutral: what the providers send and receive and what the store keeps of
// a run (the messages table). Types only: the providers map them to each wire format.

/** One tool call the model composed: `input` is already-parsed JSON (malformed arguments are a provider error). */
export interface ModelToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Set by the kernel once the call is recorded: the row that carries it (never sent to a model). */
  row_id?: string;
}

/** One tool result as the model reads it (DESIGN §3: text, then structuredContent JSON on its own line). */
export interface ModelToolResult {
  id: string;
  name: string;
  text: string;
  isError?: boolean;
}

/** A conversation message, provider-neutral. A `tool` message carries every result of one fan. */
export type ConvMessage =
  { role: 'user'; text: string } | { role: 'assistant'; text: string; toolCalls?: ModelToolCall[] } | { role: 'tool'; results: ModelToolResult[] };
