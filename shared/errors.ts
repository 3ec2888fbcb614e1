// The errors that cross layers, in the lowest layer that raises them (the store raises KernelError too), so
// every layer can throw them without importing upwards. Both carry a stable code that every door reports as is.

/** Throw this from a handler (or anything it calls) to answer with a stable error code instead of `internal`. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** An error the kernel (or its store) raises: an ApiFailure, so every door reports its code. */
export class KernelError extends ApiFailure {}
