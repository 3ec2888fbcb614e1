// The one NexusApi the window talks to, set once at start (main.tsx) so stores and tests can inject it.
import type { MethodName, Methods, InputOf, OutputOf, NexusApi, ApiError } from '../../../shared/api/index.js';
import { NexusError } from '../../../shared/errors.js';

let current: NexusApi | null = null;

export function setApi(api: NexusApi): void {
  current = api;
  prefetched.clear();
}

// Calls sent at start, before React and the views are even parsed, so the socket and the kernel work while
// the page loads (main.tsx). The first store call of that name with the same input takes the answer. Any
// kernel event drops them: after a change, a store must read the kernel afresh, never an answer that may predate it.
const prefetched = new Map<string, Promise<unknown>>();
const keyOf = (name: string, input: unknown) => `${name} ${JSON.stringify(input ?? {})}`;

export function prefetch(calls: Array<MethodName | [MethodName, unknown]>): void {
  const api = getApi();
  for (const c of calls) {
    const [name, input] = typeof c === 'string' ? [c, {}] : c;
    prefetched.set(keyOf(name, input), (api[name] as (i: unknown) => Promise<unknown>)(input));
  }
  api.onEvent(() => prefetched.clear());
}
export function getApi(): NexusApi {
  if (!current) throw new Error('The NEXUS API is not connected yet.');
  return current;
}

/** A failed call, carried as an Error so views can catch it; `code` is the API's stable code, `details` each
 *  refused input's path and problem (a form shows them beside its fields). */
export class CallError extends NexusError {
  readonly details: ApiError['details'];
  constructor(error: ApiError) {
    super(error.code, error.message);
    this.details = error.details;
  }
}

/** Call one method and return its value, or throw CallError. */
export async function call<K extends MethodName>(name: K, input: InputOf<Methods[K]>): Promise<OutputOf<Methods[K]>> {
  const fn = getApi()[name] as (i: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; error: ApiError }>;
  const key = keyOf(name, input);
  const early = prefetched.get(key);
  const plain = early !== undefined;
  if (early) prefetched.delete(key);
  let result = (early && plain ? await early : await fn(input)) as Awaited<ReturnType<typeof fn>>;
  // An early call the socket never carried (NEXUS unreachable at start) is asked again, and waits for the link.
  if (early && plain && !result.ok && result.error.code === 'disconnected') result = await fn(input);
  if (!result.ok) throw new CallError(result.error);
  return result.value as OutputOf<Methods[K]>;
}
