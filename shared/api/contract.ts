// The framework of the one API: every method has a zod input and output schema; every door carries
// `{ ok: true, value } | { ok: false, error: { code, message } }` (DESIGN §1). Pure: no I/O.
import { z } from 'zod';

export interface MethodSpec<I extends z.ZodTypeAny = z.ZodTypeAny, O extends z.ZodTypeAny = z.ZodTypeAny> {
  input: I;
  output: O;
  /** One line a person reads in API docs and the CLI's help. */
  doc: string;
}

export const method = <I extends z.ZodTypeAny, O extends z.ZodTypeAny>(input: I, output: O, doc: string): MethodSpec<I, O> => ({
  input,
  output,
  doc,
});

export interface ApiError {
  /** Stable, machine-readable: `invalid_input`, `not_found`, `conflict`, `internal`, or a domain code. */
  code: string;
  message: string;
  details?: unknown;
}
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: string, message: string, details?: unknown): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

export type MethodTable = Record<string, MethodSpec>;
export type InputOf<M extends MethodSpec> = z.input<M['input']>;
export type OutputOf<M extends MethodSpec> = z.output<M['output']>;
