// A model call's cancellation: the run's stop signal plus an idle timeout that is re-armed on every
// streamed chunk (the SDKs' own timeouts only cover the wait for response headers; a stream that stalls
// half-way would otherwise hang a run forever).
import { ProviderError } from './types.js';

export interface Deadline {
  signal: AbortSignal;
  /** Progress was made: re-arm the idle timer. */
  touch(): void;
  /** Why the call was aborted, if it was. */
  reason(): 'timeout' | 'stopped' | null;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let why: 'timeout' | 'stopped' | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      why ??= 'timeout';
      controller.abort(new Error('timeout'));
    }, timeoutMs);
  };
  const onOuter = () => {
    why ??= 'stopped';
    controller.abort(new Error('stopped'));
  };
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  arm();
  return {
    signal: controller.signal,
    touch: () => {
      if (!why) arm();
    },
    reason: () => why,
    dispose: () => {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** A model call's idle timeout when the profile sets none. */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;

export interface ModelCallOptions {
  timeoutMs: number;
  /** The run's stop signal. */
  signal?: AbortSignal;
  /** The server, as errors name it. */
  where: string;
  redact: (s: string) => string;
}

/** One model call under a deadline: whatever it throws becomes a ProviderError, and the timer never outlives it. */
export async function underDeadline<T>(o: ModelCallOptions, call: (deadline: Deadline) => Promise<T>): Promise<T> {
  const deadline = startDeadline(o.timeoutMs, o.signal);
  try {
    return await call(deadline);
  } catch (e) {
    throw toProviderError(e, deadline, o.timeoutMs, o.where, o.redact);
  } finally {
    deadline.dispose();
  }
}

/** Map whatever an SDK threw into a ProviderError with a reason a person can act on. */
export function toProviderError(e: unknown, deadline: Deadline, timeoutMs: number, where: string, redactText: (s: string) => string): ProviderError {
  if (e instanceof ProviderError) return new ProviderError(e.code, redactText(e.message), e.status);
  const why = deadline.reason();
  if (why === 'stopped') return new ProviderError('aborted', 'The model request was canceled because the run was stopped.');
  if (why === 'timeout') return new ProviderError('provider_timeout', `The model at ${where} did not answer within ${Math.round(timeoutMs / 100) / 10} s.`);
  const err = e as { name?: string; status?: number; message?: string; constructor?: { name?: string } };
  const cls = err?.constructor?.name ?? err?.name ?? '';
  const msg = redactText(String(err?.message ?? e));
  if (/TimeoutError/.test(cls)) return new ProviderError('provider_timeout', `The model at ${where} did not answer in time: ${msg}`);
  if (/ConnectionError/.test(cls)) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? msg;
    return new ProviderError('provider_unreachable', `The model at ${where} could not be reached (${redactText(String(detail))}).`);
  }
  if (typeof err?.status === 'number') {
    return new ProviderError('provider_http_error', `The model at ${where} answered HTTP ${err.status}: ${msg}`, err.status);
  }
  if (e instanceof SyntaxError) return new ProviderError('provider_bad_response', `The model at ${where} sent a reply that is not valid JSON: ${msg}`);
  // undici reports a socket closed mid-body as "terminated" / "other side closed".
  if (/terminated|other side closed|socket|ECONNRESET|premature/i.test(msg)) {
    return new ProviderError('provider_unreachable', `The connection to the model at ${where} closed before the reply ended (${msg}).`);
  }
  return new ProviderError('provider_bad_response', `The model at ${where} failed: ${msg}`);
}

/** Parse a tool call's JSON arguments; anything but a JSON object is a malformed reply. */
export function parseToolArguments(raw: string, tool: string, where: string): Record<string, unknown> {
  const text = raw.trim() === '' ? '{}' : raw;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ProviderError(
      'provider_bad_response',
      `The model at ${where} sent malformed arguments for tool ${tool}: ${JSON.stringify(raw.slice(0, 200))} is not JSON.`,
    );
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ProviderError('provider_bad_response', `The model at ${where} sent arguments for tool ${tool} that are not a JSON object.`);
  }
  return v as Record<string, unknown>;
}
