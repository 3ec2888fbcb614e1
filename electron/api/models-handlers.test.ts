// Test connection: a real request to a real (local, scripted) HTTP server through the agents' own providers;
// the answer, or the failure in words, comes back; a typed key is used for that one request only.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../../test/support/scripted-model.js';
import { modelsHandlers } from './models-handlers.js';
import { NO_KEYS } from '../providers/keys.js';

let model: ScriptedModel | null = null;
afterEach(async () => {
  await model?.close();
  model = null;
});
const ctx = { door: 'internal' as const };
const handlers = (env: NodeJS.ProcessEnv = {}) => modelsHandlers({ keyStore: NO_KEYS }, env);

describe('modelsTest', () => {
  it('sends one request and shows what the model answered; a typed key goes as the credential and comes back nowhere', async () => {
    model = await startScriptedModel({ script: [{ text: 'ok' }] });
    const r = await handlers().modelsTest!({ provider: 'chat-completions', baseURL: model.baseURL, model: 'm1', key: 'sk-typed-123' }, ctx);
    expect(r).toMatchObject({ ok: true, reply: 'ok', error: null });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].model).toBe('m1');
    expect(String(model.requests[0].headers.authorization)).toBe('Bearer sk-typed-123');
    expect(JSON.stringify(r)).not.toContain('sk-typed-123');
  });

  it('says in words why a server refused, and the key it was sent never appears in the message', async () => {
    model = await startScriptedModel({ script: [{ fault: 'http_error', status: 401, text: 'invalid api key sk-typed-123' }] });
    const r = await handlers().modelsTest!({ provider: 'chat-completions', baseURL: model.baseURL, model: 'm1', key: 'sk-typed-123' }, ctx);
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('provider_http_error');
    expect(r.error?.message).toMatch(/401/);
    expect(r.error?.message).not.toContain('sk-typed-123');
  });

  it('an unreachable server and a missing key variable are named as such', async () => {
    const down = await handlers().modelsTest!({ provider: 'chat-completions', baseURL: 'http://127.0.0.1:1/v1', model: 'm' }, ctx);
    expect(down).toMatchObject({ ok: false, reply: null, error: { code: 'provider_unreachable' } });
    const nokey = await handlers({}).modelsTest!({ provider: 'anthropic', baseURL: 'http://127.0.0.1:1', model: 'm', apiKeyEnv: 'NO_SUCH_KEY_VAR' }, ctx);
    expect(nokey.error).toMatchObject({ code: 'provider_no_key', message: expect.stringMatching(/NO_SUCH_KEY_VAR/) });
  });
});
