// The errors that cross layers, in the lowest layer that raises them (the store raises KernelError too), so
// every layer can throw them without importing upwards. Each carries a stable code that every door reports as is.

/** What every NEXUS error is: a stable, machine-readable code beside the sentence a person reads. */
export class NexusError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    // The subclass's own name, so a stack or a log line says which error it was.
    this.name = new.target.name;
  }
}

/** Throw this from a handler (or anything it calls) to answer with a stable error code instead of `internal`. */
export class ApiFailure extends NexusError {
  constructor(
    code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(code, message);
  }
}

/** An error the kernel (or its store) raises: an ApiFailure, so every door reports its code. */
export class KernelError extends ApiFailure {}

/** The sentence of anything thrown: an Error's message, or the thrown value as text (never "[object Object]"
 *  for a plain object: its JSON). */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null) {
    try {
      return JSON.stringify(e) ?? String(e);
    } catch {
      return String(e);
    }
  }
  return String(e);
}
