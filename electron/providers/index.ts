// Make the model provider an agent's profile names. Keys come from the profile's env var or the KeyStore.
import type { ModelConfig } from '../../shared/types.js';
import { createAnthropicProvider } from './anthropic.js';
import { createChatCompletionsProvider } from './chat-completions.js';
import { redact, resolveApiKey, type KeyStore } from './keys.js';
import type { ModelProvider } from './types.js';

export * from './types.js';
export { redact, resolveApiKey, NO_KEYS, type KeyStore } from './keys.js';

export interface ProviderOptions {
  keyStore?: KeyStore;
  /** Idle timeout for one model call, ms (re-armed by every streamed chunk). Default 120 s. */
  timeoutMs?: number;
  /** SDK retries (they retry by default); small so a dead server fails the run promptly. Default 1. */
  maxRetries?: number;
  /** Stream replies (default) or ask for one JSON body. */
  stream?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The model section of a profile, plus the optional per-agent knobs a profile file may carry. */
export type ProviderConfig = ModelConfig & { stream?: boolean; timeout_s?: number; max_tokens?: number };

export async function createProvider(model: ProviderConfig, agent: string | null, opts: ProviderOptions = {}): Promise<ModelProvider> {
  const apiKey = await resolveApiKey(model, agent, opts.keyStore, opts.env);
  const common = {
    baseURL: model.baseURL.replace(/\/+$/, ''),
    model: model.model,
    apiKey,
    stream: model.stream ?? opts.stream ?? true,
    timeoutMs: model.timeout_s ? model.timeout_s * 1000 : opts.timeoutMs,
    maxRetries: opts.maxRetries ?? 1,
    redact: (s: string) => redact(s, [apiKey]),
  };
  if (model.provider === 'anthropic') return createAnthropicProvider({ ...common, maxTokens: model.max_tokens });
  return createChatCompletionsProvider(common);
}
