// The one NexusApi the window talks to, set once at start (main.tsx) so stores and tests can inject it.
import type { MethodName, Methods, InputOf, OutputOf, NexusApi, ApiError } from '../../../shared/api/index.js';

let current: NexusApi | null = null;

export function setApi(api: NexusApi): void {
  current = api;
}
export function getApi(): NexusApi {
  if (!current) throw new Error('The NEXUS API is not connected yet.');
  return current;
}

/** A failed call, carried as an Error so views can catch it; `code` is the API's stable code. */
export class CallError extends Error {
  readonly code: string;
  constructor(error: ApiError) {
    super(error.message);
    this.code = error.code;
  }
}

/** Call one method and return its value, or throw CallError. */
export async function call<K extends MethodName>(name: K, input: InputOf<Methods[K]>): Promise<OutputOf<Methods[K]>> {
  const fn = getApi()[name] as (i: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; error: ApiError }>;
  const result = await fn(input);
  if (!result.ok) throw new CallError(result.error);
  return result.value as OutputOf<Methods[K]>;
}

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
