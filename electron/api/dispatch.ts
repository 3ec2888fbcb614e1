// One handler table implements the contract once; every door calls `dispatch` (DESIGN §1).
// Input is validated here with the method's zod schema, so no door has to trust its caller.
import {
  apiErrorOf,
  ErrorDetail,
  HOOK_METHODS,
  methods,
  type ApiError,
  type MethodName,
  type Methods,
  type OutputOf,
  type Result,
} from '../../shared/api/index.js';
import { z } from 'zod';

import { ApiFailure, errorMessage } from '../../shared/errors.js';

export { ApiFailure };

export interface CallContext {
  /** Which door the call came through: the UI's doors may approve, an agent's tools never reach here. */
  door: 'ipc' | 'web' | 'socket' | 'internal';
  /** Which credential the control socket's caller presented: the person's (every method) or the hook's (only the
   *  contract's hook methods). The other doors authenticate the person in their own way. */
  credential?: 'person' | 'hook';
  /** Aborted when the caller's connection closes (a long wait can stop waiting for nobody). */
  signal?: AbortSignal;
}

/** The door as a person sees it, recorded with every decision: the app window (Electron IPC), the browser host
 *  (web door), the `nexus` command (control socket); `internal` is NEXUS itself (setup, demo, tests). */
export const PERSON_DOOR = { ipc: 'window', web: 'browser', socket: 'cli', internal: 'internal' } as const satisfies Record<CallContext['door'], string>;

/** Who decided, as stored in approved_by / resolved_by / answered_by / created_by: `person:window|browser|cli`. */
export const personBy = (ctx: CallContext): string => `person:${PERSON_DOOR[ctx.door]}`;

export type Handlers = {
  [K in MethodName]: (input: z.output<Methods[K]['input']>, ctx: CallContext) => OutputOf<Methods[K]> | Promise<OutputOf<Methods[K]>>;
};

/** A domain failure as the API reports it: its details only when they have the one shape every caller reads. */
function failureOf(e: ApiFailure): ApiError {
  const details = z.array(ErrorDetail).safeParse(e.details);
  return details.success ? { code: e.code, message: e.message, details: details.data } : { code: e.code, message: e.message };
}

/** A method outside the hook's set, asked with the hook credential: refused before its input is read, so nothing changes. */
export const hookRefusal = (name: string): ApiError => ({
  code: 'hook_credential',
  message: `The hook credential can only ask NEXUS about a connected client's tool call; it cannot call ${name}. Decisions, agents, settings, Stop all and Resume need the person's credential (the nexus command, the window or the browser).`,
});

/** The table is complete (electron/app.ts builds it `satisfies Handlers`); the name comes off the wire, so it is
 *  checked against the contract before it is looked up. */
export async function dispatch(handlers: Handlers, name: string, rawInput: unknown, ctx: CallContext): Promise<Result<unknown>> {
  if (!Object.hasOwn(methods, name)) return { ok: false, error: { code: 'unknown_method', message: `No method named ${JSON.stringify(name)}.` } };
  if (ctx.credential === 'hook' && !HOOK_METHODS.has(name)) return { ok: false, error: hookRefusal(name) };
  const spec = methods[name as MethodName];
  const handler = handlers[name as MethodName] as (input: unknown, ctx: CallContext) => unknown;
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) return { ok: false, error: apiErrorOf(parsed.error) };
  try {
    const value = await handler(parsed.data, ctx);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof ApiFailure) return { ok: false, error: failureOf(e) };
    return { ok: false, error: { code: 'internal', message: errorMessage(e) } };
  }
}
