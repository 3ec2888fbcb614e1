// Anthropic Messages through `@anthropic-ai/sdk`. Streaming by default: raw SSE events aggregated here
// (text deltas, and tool_use input assembled from input_json_delta fragments, parsed at block end).
import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_MODEL_TIMEOUT_MS, parseToolArguments, underDeadline } from './deadline.js';
import type { Completion, CompletionRequest, ConvMessage, ModelProvider, ModelToolCall, ProviderConnection, StopReason } from './types.js';
import { ProviderError } from './types.js';

export interface AnthropicOptions extends ProviderConnection {
  maxTokens?: number;
}

type Block = Record<string, unknown>;
interface Msg {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Messages must alternate user/assistant: tool results and any following text merge into one user turn. */
export function toAnthropicMessages(messages: ConvMessage[]): Msg[] {
  const out: Msg[] = [];
  const push = (role: Msg['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: [...blocks] });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', [{ type: 'text', text: m.text || '(empty)' }]);
    else if (m.role === 'assistant') {
      const blocks: Block[] = [];
      if (m.text) blocks.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
      push('assistant', blocks.length ? blocks : [{ type: 'text', text: '(empty)' }]);
    } else {
      push(
        'user',
        m.results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.text || '(no output)', ...(r.isError ? { is_error: true } : {}) })),
      );
    }
  }
  return out;
}

const mapStop = (r: unknown): StopReason =>
  r === 'tool_use' ? 'tool_use' : r === 'max_tokens' ? 'max_tokens' : r === 'end_turn' || r === 'stop_sequence' || r == null ? 'end_turn' : 'other';

export function createAnthropicProvider(opts: AnthropicOptions): ModelProvider {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const client = new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: opts.maxRetries ?? 1, timeout: timeoutMs });
  const where = opts.baseURL;

  async function complete(req: CompletionRequest): Promise<Completion> {
    const params = {
      model: opts.model,
      max_tokens: req.maxTokens ?? opts.maxTokens ?? 4096,
      ...(req.system ? { system: req.system } : {}),
      messages: toAnthropicMessages(req.messages),
      ...(req.tools.length ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) } : {}),
    } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    return underDeadline({ timeoutMs, signal: req.signal, where, redact: opts.redact }, async (deadline) => {
      if (opts.stream === false) {
        const res = (await client.messages.create({ ...params, stream: false }, { signal: deadline.signal })) as unknown;
        return fromMessage(res, where);
      }
      const stream = await client.messages.create({ ...params, stream: true }, { signal: deadline.signal });
      return await aggregate(stream as AsyncIterable<unknown>, deadline.touch, where);
    });
  }
  return { kind: 'anthropic', complete };
}

function fromMessage(res: unknown, where: string): Completion {
  const r = res as { content?: unknown; stop_reason?: unknown; usage?: { input_tokens?: number; output_tokens?: number } };
  if (!r || typeof r !== 'object' || !Array.isArray(r.content)) {
    throw new ProviderError('provider_bad_response', `The model at ${where} sent a reply without a content array.`);
  }
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  for (const b of r.content as Array<{ type?: string; text?: string; id?: string; name?: string; input?: unknown }>) {
    if (b?.type === 'text' && typeof b.text === 'string') text += b.text;
    else if (b?.type === 'tool_use') {
      if (typeof b.name !== 'string' || !b.name)
        throw new ProviderError('provider_bad_response', `The model at ${where} sent a tool_use block without a name.`);
      const input = typeof b.input === 'string' ? parseToolArguments(b.input, b.name, where) : b.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw new ProviderError('provider_bad_response', `The model at ${where} sent a tool_use input for ${b.name} that is not a JSON object.`);
      }
      toolCalls.push({ id: b.id ?? `toolu_${toolCalls.length}`, name: b.name, input: input as Record<string, unknown> });
    }
  }
  return {
    text,
    toolCalls,
    usage: { input_tokens: r.usage?.input_tokens ?? 0, output_tokens: r.usage?.output_tokens ?? 0 },
    stop_reason: mapStop(r.stop_reason),
  };
}

async function aggregate(stream: AsyncIterable<unknown>, touch: () => void, where: string): Promise<Completion> {
  let text = '';
  let stop: unknown = null;
  const usage = { input_tokens: 0, output_tokens: 0 };
  let started = false;
  let stopped = false;
  const blocks = new Map<number, { kind: 'text' | 'tool_use' | 'other'; id: string; name: string; json: string }>();
  for await (const raw of stream) {
    touch();
    const ev = raw as {
      type?: string;
      index?: number;
      message?: { usage?: { input_tokens?: number; output_tokens?: number } };
      content_block?: { type?: string; id?: string; name?: string; text?: string };
      delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: unknown };
      usage?: { output_tokens?: number; input_tokens?: number };
      error?: { message?: string };
    };
    switch (ev?.type) {
      case 'message_start':
        started = true;
        usage.input_tokens = ev.message?.usage?.input_tokens ?? 0;
        usage.output_tokens = ev.message?.usage?.output_tokens ?? 0;
        break;
      case 'content_block_start': {
        const cb = ev.content_block ?? {};
        const kind = cb.type === 'text' ? 'text' : cb.type === 'tool_use' ? 'tool_use' : 'other';
        blocks.set(ev.index ?? blocks.size, { kind, id: cb.id ?? '', name: cb.name ?? '', json: '' });
        if (kind === 'text' && cb.text) text += cb.text;
        break;
      }
      case 'content_block_delta': {
        const b = blocks.get(ev.index ?? -1);
        if (!b) throw new ProviderError('provider_bad_response', `The model at ${where} streamed a delta for a block it never started.`);
        if (ev.delta?.type === 'text_delta' && typeof ev.delta.text === 'string') text += ev.delta.text;
        else if (ev.delta?.type === 'input_json_delta' && typeof ev.delta.partial_json === 'string') b.json += ev.delta.partial_json;
        break;
      }
      case 'message_delta':
        if (ev.delta?.stop_reason !== undefined) stop = ev.delta.stop_reason;
        if (typeof ev.usage?.output_tokens === 'number') usage.output_tokens = ev.usage.output_tokens;
        if (typeof ev.usage?.input_tokens === 'number' && ev.usage.input_tokens > 0) usage.input_tokens = ev.usage.input_tokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'content_block_stop':
      case 'ping':
        break;
      case 'error':
        throw new ProviderError('provider_http_error', `The model at ${where} reported an error mid-stream: ${ev.error?.message ?? 'unknown'}`);
      default:
        throw new ProviderError('provider_bad_response', `The model at ${where} streamed an event that is not part of the Messages protocol.`);
    }
  }
  if (!started) throw new ProviderError('provider_bad_response', `The model at ${where} did not send a Messages stream.`);
  if (!stopped) throw new ProviderError('provider_unreachable', `The stream from the model at ${where} ended before message_stop.`);
  const toolCalls: ModelToolCall[] = [];
  for (const [, b] of [...blocks.entries()].sort(([a], [c]) => a - c)) {
    if (b.kind !== 'tool_use') continue;
    if (!b.name) throw new ProviderError('provider_bad_response', `The model at ${where} streamed a tool_use block without a name.`);
    toolCalls.push({ id: b.id || `toolu_${toolCalls.length}`, name: b.name, input: parseToolArguments(b.json, b.name, where) });
  }
  return { text, toolCalls, usage, stop_reason: mapStop(stop) };
}
