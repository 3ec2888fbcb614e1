// Where a provider's key comes from: the environment variable the profile names, else a KeyStore
// (the Electron app backs it with safeStorage; headless runs use the environment only).
// Keys are never stored in SQLite in clear and never logged: every error message passes through `redact`.
import type { ModelConfig } from '../../shared/types.js';
import { ProviderError } from './types.js';

export interface KeyStore {
  /** The key saved for this agent, or undefined. */
  get(agent: string): Promise<string | undefined> | string | undefined;
}

/** Headless: no stored keys. */
export const NO_KEYS: KeyStore = { get: () => undefined };

/** Local servers (Ollama, LM Studio, llama.cpp, vLLM) take any key; the SDKs insist on one. */
export const PLACEHOLDER_KEY = 'nexus-no-key';

export async function resolveApiKey(
  model: ModelConfig,
  agent: string | null,
  keyStore: KeyStore = NO_KEYS,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (model.apiKeyEnv) {
    const v = env[model.apiKeyEnv];
    if (v && v.length > 0) return v;
  }
  const stored = agent ? await keyStore.get(agent) : undefined;
  if (stored) return stored;
  if (model.apiKeyEnv) {
    throw new ProviderError(
      'provider_no_key',
      `The environment variable ${model.apiKeyEnv} named by the profile is not set, and no key is stored for this agent.`,
    );
  }
  return PLACEHOLDER_KEY;
}

/** Remove every occurrence of the secrets (and anything that looks like a bearer/API key) from a text. */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4 && s !== PLACEHOLDER_KEY) out = out.split(s).join('[redacted]');
  }
  return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]').replace(/\b(sk-[A-Za-z0-9_-]{6})[A-Za-z0-9_-]+/g, '$1…[redacted]');
}
