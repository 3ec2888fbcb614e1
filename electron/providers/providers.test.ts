// Providers against the scripted model over real HTTP: both wire formats, streaming and not, and every
// way a provider can let a run down (refused, closed mid-reply, garbage, malformed arguments, slow, stopped).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../../test/support/scripted-model.js';
import { createProvider, ProviderError, type ConvMessage, type ProviderConfig } from './index.js';

let model: ScriptedModel;
beforeEach(async () => {
  model = await startScriptedModel();
});
afterEach(async () => {
  await model.close();
});

const TOOLS = [{ name: 'bash', description: 'Run a command', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } }];
const cfg = (provider: 'chat-completions' | 'anthropic', extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
  provider,
  baseURL: provider === 'anthropic' ? model.anthropicBaseURL : model.baseURL,
  model: 'scripted-1',
  ...extra,
});
const failure = async (p: Promise<unknown>): Promise<ProviderError> => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected the call to fail');
};

const matrix = [
  ['chat-completions', true],
  ['chat-completions', false],
  ['anthropic', true],
  ['anthropic', false],
] as const;

describe.each(matrix)('%s provider (stream=%s)', (kind, stream) => {
  it('aggregates text and tool calls with fragmented arguments', async () => {
    model.push({
      text: 'Let me look around first.',
      toolCalls: [
        { name: 'bash', input: { command: 'ls -la /tmp && echo "a long argument split into fragments"' } },
        { name: 'bash', input: { command: 'pwd', nested: { list: [1, 2, 3] } } },
      ],
    });
    const p = await createProvider(cfg(kind), 'a1', { stream });
    const res = await p.complete({ system: 'You are careful.', messages: [{ role: 'user', text: 'hello' }], tools: TOOLS });
    expect(res.text).toBe('Let me look around first.');
    expect(res.stop_reason).toBe('tool_use');
    expect(res.toolCalls.map((c) => c.input)).toEqual([
      { command: 'ls -la /tmp && echo "a long argument split into fragments"' },
      { command: 'pwd', nested: { list: [1, 2, 3] } },
    ]);
    expect(new Set(res.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(res.usage.output_tokens).toBeGreaterThan(0);
    const req = model.requests[0]!;
    expect(req.api).toBe(kind);
    expect(req.stream).toBe(stream);
    expect(req.system).toBe('You are careful.');
    expect(req.toolNames).toEqual(['bash']);
    expect(req.userText).toBe('hello');
  });

  it('sends a whole conversation, tool results included, in the wire format', async () => {
    model.push({ text: 'All done.' });
    const p = await createProvider(cfg(kind), 'a1', { stream });
    const messages: ConvMessage[] = [
      { role: 'user', text: 'do it' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'c1', name: 'bash', input: { command: 'echo 1' } },
          { id: 'c2', name: 'bash', input: { command: 'echo 2' } },
        ],
      },
      {
        role: 'tool',
        results: [
          { id: 'c1', name: 'bash', text: 'one' },
          { id: 'c2', name: 'bash', text: 'two', isError: true },
        ],
      },
      { role: 'user', text: 'keep going' },
    ];
    const res = await p.complete({ system: 's', messages, tools: TOOLS });
    expect(res).toMatchObject({ text: 'All done.', toolCalls: [], stop_reason: 'end_turn' });
    const req = model.requests[0]!;
    expect(req.toolResults).toEqual([
      { id: 'c1', text: 'one' },
      { id: 'c2', text: 'two' },
    ]);
    expect(req.userText).toBe('keep going');
    expect(req.messages.find((m) => m.role === 'assistant')?.toolCalls?.map((c) => c.input)).toEqual([{ command: 'echo 1' }, { command: 'echo 2' }]);
  });

  it('fails clearly when the server drops the connection', async () => {
    model.push({ fault: 'close' }, { fault: 'close' });
    const p = await createProvider(cfg(kind), 'a1', { stream, maxRetries: 1 });
    const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] }));
    expect(e.code).toBe('provider_unreachable');
  });

  it('fails clearly when the server answers garbage', async () => {
    model.push({ fault: 'garbage' });
    const p = await createProvider(cfg(kind), 'a1', { stream });
    const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] }));
    expect(e.code).toBe('provider_bad_response');
  });

  it('fails clearly on malformed tool arguments', async () => {
    model.push({ toolCalls: [{ name: 'bash', rawArguments: '{"command": "ls' }] });
    const p = await createProvider(cfg(kind), 'a1', { stream });
    const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: TOOLS }));
    expect(e.code).toBe('provider_bad_response');
    expect(e.message).toContain('bash');
  });

  it('times out a server that never answers', async () => {
    model.push({ fault: 'hang' }, { fault: 'hang' });
    const p = await createProvider(cfg(kind), 'a1', { stream, timeoutMs: 300, maxRetries: 0 });
    const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] }));
    expect(e.code).toBe('provider_timeout');
  });

  it('is canceled by the run stop signal', async () => {
    model.push({ fault: 'hang' });
    const p = await createProvider(cfg(kind), 'a1', { stream, maxRetries: 0 });
    const ac = new AbortController();
    const pending = p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [], signal: ac.signal });
    await model.waitForRequests(1);
    ac.abort();
    expect((await failure(pending)).code).toBe('aborted');
  });
});

describe('provider failures and keys', () => {
  it('a stream cut mid-reply is a failure, not a short answer', async () => {
    for (const kind of ['chat-completions', 'anthropic'] as const) {
      model.push({ text: 'a fairly long answer that will be cut half way through the stream', fault: 'close_mid_stream' });
      const p = await createProvider(cfg(kind), 'a1', { maxRetries: 0 });
      const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] }));
      expect(e.code, kind).toBe('provider_unreachable');
    }
  });

  it('tool calls streamed whole and without an index (older Ollama, llama.cpp) stay separate calls', async () => {
    model.push({
      toolCalls: [
        { name: 'bash', input: { command: 'one' } },
        { name: 'bash', input: { command: 'two' } },
      ],
      omitToolCallIndex: true,
    });
    const p = await createProvider(cfg('chat-completions'), 'a1');
    const res = await p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: TOOLS });
    expect(res.toolCalls.map((c) => c.input)).toEqual([{ command: 'one' }, { command: 'two' }]);
  });

  it('a server that refuses stream_options is asked again without it', async () => {
    model.setScript((req) =>
      req.body.stream_options
        ? { fault: 'http_error', status: 400, text: 'Unrecognized request argument supplied: stream_options' }
        : { text: 'no usage here' },
    );
    const p = await createProvider(cfg('chat-completions'), 'a1');
    expect((await p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] })).text).toBe('no usage here');
    expect((await p.complete({ system: '', messages: [{ role: 'user', text: 'y' }], tools: [] })).text).toBe('no usage here');
    expect(model.requests.map((r) => 'stream_options' in r.body)).toEqual([true, false, false]);
  });

  it('a server that is down is provider_unreachable', async () => {
    const url = model.baseURL;
    await model.close();
    model = await startScriptedModel();
    const p = await createProvider({ provider: 'chat-completions', baseURL: url, model: 'm' }, 'a1', { maxRetries: 0 });
    const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] }));
    expect(e.code).toBe('provider_unreachable');
  });

  it('reads the key from the env var the profile names and never shows it in errors', async () => {
    const secret = 'sk-test-SECRET-0123456789abcdef';
    const env = { NEXUS_TEST_KEY: secret };
    model.push({ fault: 'http_error', status: 401, text: `invalid key ${secret}` });
    const p = await createProvider(cfg('chat-completions', { apiKeyEnv: 'NEXUS_TEST_KEY' }), 'a1', { env });
    const e = await failure(p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] }));
    expect(model.requests[0]!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(e.code).toBe('provider_http_error');
    expect(e.status).toBe(401);
    expect(e.message).not.toContain(secret);
    expect(e.message).toContain('[redacted]');

    model.push({ text: 'ok' });
    const a = await createProvider(cfg('anthropic', { apiKeyEnv: 'NEXUS_TEST_KEY' }), 'a1', { env });
    await a.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] });
    const h = model.requests[1]!.headers;
    expect(h['x-api-key'] ?? h.authorization).toMatch(new RegExp(`^(Bearer )?${secret}$`));
  });

  it('a key the profile names but nobody set is a clear error; a KeyStore can supply it', async () => {
    await expect(createProvider(cfg('anthropic', { apiKeyEnv: 'NEXUS_UNSET_KEY_XYZ' }), 'a1', { env: {} })).rejects.toMatchObject({ code: 'provider_no_key' });
    model.push({ text: 'ok' });
    const p = await createProvider(cfg('chat-completions', { apiKeyEnv: 'NEXUS_UNSET_KEY_XYZ' }), 'a1', {
      env: {},
      keyStore: { get: (a) => (a === 'a1' ? 'stored-key-123456' : undefined) },
    });
    await p.complete({ system: '', messages: [{ role: 'user', text: 'x' }], tools: [] });
    expect(model.requests[0]!.headers.authorization).toBe('Bearer stored-key-123456');
  });
});
