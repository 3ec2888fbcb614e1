// modelsTest: one short real request through the same providers agents use (electron/providers), so a person
// sees whether a base URL, model and key work before any agent depends on them.
import type { Handlers } from './dispatch.js';
import { createProvider, ProviderError, type KeyStore } from '../providers/index.js';
import { errorMessage } from '../../shared/errors.js';

const TEST_TIMEOUT_MS = 20_000;

/** keyStore: the provider keys agents use (the desktop app's keychain; headless: none). */
export function modelsHandlers(ports: { keyStore: KeyStore }, env: NodeJS.ProcessEnv = process.env): Pick<Handlers, 'modelsTest'> {
  return {
    modelsTest: async ({ provider, baseURL, model, key, apiKeyEnv }) => {
      const started = Date.now();
      // A typed key stands in for the environment for this one request; nothing is kept.
      const oneKey: KeyStore = { get: () => (key?.trim() ? key.trim() : undefined) };
      const keyStore = key?.trim() ? oneKey : ports.keyStore;
      try {
        const p = await createProvider(
          { provider, baseURL, model, ...(apiKeyEnv && !key?.trim() ? { apiKeyEnv } : {}), stream: false },
          key?.trim() ? 'test' : null,
          {
            keyStore,
            env,
            timeoutMs: TEST_TIMEOUT_MS,
            maxRetries: 0,
          },
        );
        const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
        const reply = await p.complete({
          system: 'This is a connection test. Reply with the single word: ok',
          messages: [{ role: 'user', text: 'ping' }],
          tools: [],
          maxTokens: 16,
          signal,
        });
        return { ok: true, reply: reply.text.slice(0, 500), error: null, ms: Date.now() - started };
      } catch (e) {
        const code = e instanceof ProviderError ? e.code : 'provider_error';
        const message = errorMessage(e);
        return { ok: false, reply: null, error: { code, message: message.slice(0, 1000) }, ms: Date.now() - started };
      }
    },
  };
}
