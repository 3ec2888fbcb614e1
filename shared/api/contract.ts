// The framework of the one API: every method has a zod input and output schema; every door carries
// `{ ok: true, value } | { ok: false, error: { code, message } }` (DESIGN §1). Pure: no I/O.
import { z } from 'zod';
import { unknownKeyMessage } from '../did-you-mean.js';

export interface MethodSpec<I extends z.ZodTypeAny = z.ZodTypeAny, O extends z.ZodTypeAny = z.ZodTypeAny> {
  input: I;
  output: O;
  /** One line a person reads in API docs and the CLI's help. */
  doc: string;
  /** A connected client's hook may call it with the hook credential (ask and read its answer; never decide). */
  hook?: true;
  /** It only reads: it decides nothing and changes nothing (the socket's peer check guards the others). */
  read?: true;
}

export const method = <I extends z.ZodTypeAny, O extends z.ZodTypeAny>(input: I, output: O, doc: string): MethodSpec<I, O> => ({
  input,
  output,
  doc,
});

/** The method names of one group of the contract, in its order: what a handler module serves is read from
 *  the contract, never listed again beside it. */
export function methodNames<G extends Record<string, MethodSpec>>(group: G): readonly (keyof G & string)[] {
  const names: (keyof G & string)[] = [];
  for (const name in group) if (Object.hasOwn(group, name)) names.push(name);
  return Object.freeze(names);
}

/** A method that only reads what the kernel holds: it decides nothing, changes nothing and hands out no
 *  session. The control socket's peer check (defense in depth against a process below a client or an agent)
 *  guards every other method; these need not name their peer. */
export const readMethod = <I extends z.ZodTypeAny, O extends z.ZodTypeAny>(input: I, output: O, doc: string): MethodSpec<I, O> => ({
  input,
  output,
  doc,
  read: true,
});

/** A method a connected client's hook calls: the only ones the hook credential may reach (DESIGN §7.3). */
export const hookMethod = <I extends z.ZodTypeAny, O extends z.ZodTypeAny>(input: I, output: O, doc: string): MethodSpec<I, O> => ({
  input,
  output,
  doc,
  hook: true,
});

/**
 * One problem with one field of the input: `path` is the field's dotted JSON path (`approval_rules.2.verdict`,
 * `model.baseURL`), or `input` for the input as a whole. A form puts `message` next to the field it names.
 */
/**
 * An object of NEXUS's own (an agent file, a method's input, a setting): a key it does not declare is refused,
 * each named with its path and the nearest declared key, so a typo (`aproval_rules`) never drops a rule in
 * silence. Hook events from connected clients stay `z.object` (their clients add fields as they please).
 */
export function strict<T extends z.core.$ZodLooseShape>(shape: T, params?: { error: string }) {
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? unknownKeysMessage(iss.keys, Object.keys(shape)) : params?.error),
  });
}

/** One message per unknown key, one a line: apiErrorOf makes each its own detail, at the key's own path. */
const unknownKeysMessage = (keys: readonly string[], known: readonly string[]) => keys.map((k) => unknownKeyMessage(k, known)).join('\n');

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ApiError = z.object({
  /** Stable, machine-readable: `invalid_input`, `not_found`, `conflict`, `internal`, or a domain code. */
  code: z.string(),
  /** One line a person reads: every problem, each led by its path. */
  message: z.string(),
  /** Each problem on its own, when the failure is about fields of the input. */
  details: z.array(ErrorDetail).optional(),
});
export type ApiError = z.infer<typeof ApiError>;
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: string, message: string, details?: ErrorDetail[]): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

/** The path of an issue as `ErrorDetail.path`: its keys joined by dots, `input` when it is the input itself. */
export const detailPath = (path: readonly PropertyKey[]): string => (path.length ? path.map(String).join('.') : 'input');

/**
 * A schema that checks a value with a domain's own validator reports each problem as a `custom` issue whose
 * params name the domain's error code (`invalid_rules`), so a caller gets the same code whether the API's
 * schema or the domain itself refused the value. `lead`, when given, opens the one-line message and the
 * problems follow without their paths (they locate themselves: "rule 2: …").
 */
export interface DomainIssueParams {
  code: string;
  lead?: string;
}

/**
 * A zod error as the API reports it. Every issue is a detail; the code is the domain's when every issue comes
 * from the same domain (`invalid_rules`), else `invalid_input`. The message is one line: `<lead>: <problem>; …`
 * for a domain with a lead, else `<path>: <problem>; …`.
 */
export function apiErrorOf(error: z.ZodError): ApiError {
  const issues = error.issues.flatMap(splitUnknownKeys);
  const details = issues.map((i) => ({ path: detailPath(i.path), message: i.message }));
  const domains = issues.map((i) => (i.code === 'custom' ? domainOf(i.params) : null));
  const first = domains[0];
  const one = first && domains.every((d) => d?.code === first.code && d.lead === first.lead) ? first : null;
  const message = one?.lead ? `${one.lead}: ${details.map((d) => d.message).join('; ')}` : details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return { code: one?.code ?? 'invalid_input', message, details };
}

/** An unknown-keys issue becomes one issue per key, at the key's own path (`model.baseUrl`). */
function splitUnknownKeys(i: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (i.code !== 'unrecognized_keys' || i.keys.length === 0) return [i];
  const lines = i.message.split('\n');
  return i.keys.map((k, n) => ({ ...i, keys: [k], path: [...i.path, k], message: lines.length === i.keys.length ? lines[n] : i.message }));
}

const domainOf = (params: unknown): DomainIssueParams | null => {
  const p = params as Partial<DomainIssueParams> | undefined;
  if (typeof p?.code !== 'string') return null;
  return typeof p.lead === 'string' ? { code: p.code, lead: p.lead } : { code: p.code };
};

/** `inner`, with every issue it finds re-reported as a domain issue (its code, its optional lead). */
export function domainSchema<S extends z.ZodType>(inner: S, params: DomainIssueParams) {
  return z.custom<z.input<S>>().transform((value, ctx): z.output<S> => {
    const r = inner.safeParse(value);
    if (r.success) return r.data;
    for (const i of r.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message, params });
    return z.NEVER;
  });
}

export type MethodTable = Record<string, MethodSpec>;
export type InputOf<M extends MethodSpec> = z.input<M['input']>;
export type OutputOf<M extends MethodSpec> = z.output<M['output']>;
