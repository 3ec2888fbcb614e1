// One normalized model interface over every provider (Chat Completions servers, Anthropic Messages).
// The kernel's rounds speak only this; each provider maps it to its wire format and streams internally.

import { NexusError } from '../../shared/errors.js';
import type { ConvMessage, ModelToolCall } from '../../shared/conversation.js';

// The conversation's shapes live in shared/ (the store keeps them too); the providers speak them.
export type { ConvMessage, ModelToolCall, ModelToolResult } from '../../shared/conversation.js';

/** A tool the model may call: the name is the wire name the model will use. */
export interface ModelToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface CompletionRequest {
  system: string;
  messages: ConvMessage[];
  tools: ModelToolSpec[];
  signal?: AbortSignal;
  /** Cap on the reply's length; providers that require it (Anthropic) get a default. */
  maxTokens?: number;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

export interface Completion {
  text: string;
  toolCalls: ModelToolCall[];
  usage: Usage;
  stop_reason: StopReason;
}

/** How a provider reaches its server: what both wire protocols take. */
export interface ProviderConnection {
  baseURL: string;
  model: string;
  apiKey: string;
  /** Stream the reply (the default) or ask for it whole. */
  stream?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  /** Scrubs secrets out of error text before anyone reads it. */
  redact: (s: string) => string;
}

export interface ModelProvider {
  readonly kind: 'chat-completions' | 'anthropic';
  complete(req: CompletionRequest): Promise<Completion>;
}

/** Why a model call failed. The code is stable; the message is for a person and never carries a key. */
export type ProviderErrorCode =
  | 'provider_unreachable' // connection refused / reset / closed mid-reply
  | 'provider_timeout' // no answer (or no progress) within the configured timeout
  | 'provider_bad_response' // not JSON, not the protocol, malformed tool arguments
  | 'provider_http_error' // an HTTP error status from the server
  | 'provider_no_key' // the profile names a key that is not there
  | 'aborted'; // the run was stopped

export class ProviderError extends NexusError {
  constructor(
    override readonly code: ProviderErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(code, message);
  }
}
