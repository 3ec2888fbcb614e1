// createClient: the one way to call the API. A caller hands it a transport (how a request reaches a door and
// how events come back) and gets the typed NexusApi: one function per method, named by METHOD_NAMES. The
// preload (Electron IPC), the window's web bridge (WebSocket) and the CLI (control socket) all build theirs
// here. Pure, and zod-free at run time: the schemas are only types here, validation is the kernel's (dispatch).
import type { NexusApi, NexusEvent, MethodName } from './index.js';
import type { Result } from './contract.js';
import { METHOD_NAMES } from './method-names.js';

export interface Transport {
  /** Send one request; the answer is the door's Result, failures included (never a rejection for a refusal). */
  call(method: MethodName, input: unknown): Promise<Result<unknown>>;
  /** Receive the kernel's events; returns the unsubscribe. A transport without events gets a client whose
   *  onEvent never calls back. */
  onEvent?(listener: (event: NexusEvent) => void): () => void;
}

export function createClient(transport: Transport): NexusApi {
  const api: Record<string, unknown> = {};
  for (const name of METHOD_NAMES) api[name] = (input?: unknown) => transport.call(name, input ?? {});
  api.onEvent = transport.onEvent ? (listener: (event: NexusEvent) => void) => transport.onEvent!(listener) : () => () => {};
  // The one place the typed shape is asserted: index.ts proves METHOD_NAMES are exactly the table's methods,
  // and each function forwards its method's input and answer unchanged.
  return Object.freeze(api) as NexusApi;
}
