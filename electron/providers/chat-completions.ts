// Chat Completions (POST {baseURL}/chat/completions with tools): what OpenAI, Ollama, LM Studio, vLLM and
// llama.cpp serve. Through the official `openai` client; streaming by default, deltas aggregated here
// (text, and tool-call argument fragments keyed by index).
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { DEFAULT_MODEL_TIMEOUT_MS, parseToolArguments, underDeadline } from './deadline.js';
import type { Completion, CompletionRequest, ConvMessage, ModelProvider, ModelToolCall, ProviderConnection, StopReason } from './types.js';
import { ProviderError } from './types.js';

export type ChatCompletionsOptions = ProviderConnection;

export function toChatMessages(system: string, messages: ConvMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      const calls = m.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: m.text || (calls.length ? null : ''),
        ...(calls.length
          ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } })) }
          : {}),
      });
    } else {
      for (const r of m.results) out.push({ role: 'tool', tool_call_id: r.id, content: r.text });
    }
  }
  return out;
}

const mapFinish = (r: string | null | undefined, hasCalls: boolean): StopReason =>
  r === 'tool_calls' || (hasCalls && r !== 'length') ? 'tool_use' : r === 'length' ? 'max_tokens' : r === 'stop' || r == null ? 'end_turn' : 'other';

export function createChatCompletionsProvider(opts: ChatCompletionsOptions): ModelProvider {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: opts.maxRetries ?? 1, timeout: timeoutMs });
  const where = opts.baseURL;
  let usageOption = true;

  async function complete(req: CompletionRequest): Promise<Completion> {
    const tools: ChatCompletionTool[] = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    const base = {
      model: opts.model,
      messages: toChatMessages(req.system, req.messages),
      ...(tools.length ? { tools } : {}),
      ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
    };
    return underDeadline({ timeoutMs, signal: req.signal, where, redact: opts.redact }, async (deadline) => {
      if (opts.stream === false) {
        const res = (await client.chat.completions.create({ ...base, stream: false }, { signal: deadline.signal })) as unknown;
        return fromCompletion(res, where);
      }
      let stream;
      try {
        stream = await client.chat.completions.create(
          { ...base, stream: true, ...(usageOption ? { stream_options: { include_usage: true } } : {}) },
          { signal: deadline.signal },
        );
      } catch (e) {
        // Some servers refuse the (optional) usage option: ask again without it, and never again.
        if (!usageOption || (e as { status?: number }).status !== 400 || !/stream_options|include_usage/i.test(String((e as Error).message))) throw e;
        usageOption = false;
        stream = await client.chat.completions.create({ ...base, stream: true }, { signal: deadline.signal });
      }
      return await aggregate(stream, deadline.touch, where);
    });
  }
  return { kind: 'chat-completions', complete };
}

function fromCompletion(res: unknown, where: string): Completion {
  const r = res as {
    choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: string }>;
    usage?: { prompt_tokens?: number; completion_tokens?: number };
  };
  const choice = r && typeof r === 'object' && Array.isArray(r.choices) ? r.choices[0] : undefined;
  if (!choice || typeof choice.message !== 'object' || choice.message === null) {
    throw new ProviderError('provider_bad_response', `The model at ${where} sent a reply without choices[0].message.`);
  }
  const text = typeof choice.message.content === 'string' ? choice.message.content : '';
  const rawCalls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [];
  const toolCalls: ModelToolCall[] = rawCalls.map((c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, i: number) => {
    const name = c?.function?.name;
    if (typeof name !== 'string' || !name) throw new ProviderError('provider_bad_response', `The model at ${where} sent a tool call without a name.`);
    const args = typeof c.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {});
    return { id: typeof c.id === 'string' && c.id ? c.id : `call_${i}`, name, input: parseToolArguments(args, name, where) };
  });
  return {
    text,
    toolCalls,
    usage: { input_tokens: r.usage?.prompt_tokens ?? 0, output_tokens: r.usage?.completion_tokens ?? 0 },
    stop_reason: mapFinish(choice.finish_reason, toolCalls.length > 0),
  };
}

async function aggregate(stream: AsyncIterable<ChatCompletionChunk>, touch: () => void, where: string): Promise<Completion> {
  let text = '';
  let finish: string | null = null;
  let usage = { input_tokens: 0, output_tokens: 0 };
  let sawChunk = false;
  const calls = new Map<number, { id: string; name: string; args: string }>();
  for await (const chunk of stream) {
    touch();
    if (!chunk || typeof chunk !== 'object' || !Array.isArray((chunk as { choices?: unknown }).choices)) {
      throw new ProviderError('provider_bad_response', `The model at ${where} streamed a chunk that is not a chat.completion.chunk.`);
    }
    sawChunk = true;
    if (chunk.usage) usage = { input_tokens: chunk.usage.prompt_tokens ?? 0, output_tokens: chunk.usage.completion_tokens ?? 0 };
    for (const choice of chunk.choices) {
      if (choice.index !== 0 && choice.index !== undefined) continue;
      const d = choice.delta ?? {};
      if (typeof d.content === 'string') text += d.content;
      for (const tc of d.tool_calls ?? []) {
        // Some servers (older Ollama, llama.cpp) omit `index`: a new id starts a new call, else it continues the last.
        const byId = tc.id ? [...calls.entries()].find(([, c]) => c.id === tc.id)?.[0] : undefined;
        const idx = typeof tc.index === 'number' ? tc.index : (byId ?? (tc.id || calls.size === 0 ? calls.size : calls.size - 1));
        const cur = calls.get(idx) ?? { id: '', name: '', args: '' };
        if (tc.id) cur.id = tc.id;
        if (tc.function?.name) cur.name += tc.function.name;
        if (tc.function?.arguments) cur.args += tc.function.arguments;
        calls.set(idx, cur);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  if (!sawChunk) throw new ProviderError('provider_bad_response', `The model at ${where} ended the stream without sending anything.`);
  const toolCalls: ModelToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([idx, c]) => {
      if (!c.name) throw new ProviderError('provider_bad_response', `The model at ${where} streamed a tool call without a name.`);
      return { id: c.id || `call_${idx}`, name: c.name, input: parseToolArguments(c.args, c.name, where) };
    });
  return { text, toolCalls, usage, stop_reason: mapFinish(finish, toolCalls.length > 0) };
}
