// The per-message guard every door uses: one message's failure (a throw, a rejected promise) becomes an error
// answer to that message; the connection, the other callers and the kernel go on. Without it, a rejection from
// an async message handler is an unhandled rejection, which ends the Node process and every run in flight.

/** Run one message's work; a throw or rejection goes to `onError`, which itself may not take the process down. */
export function guarded(work: () => unknown, onError: (e: unknown) => void): void {
  const fail = (e: unknown) => {
    try {
      onError(e);
    } catch {
      /* the answer could not be sent: the connection is gone, which is its own end */
    }
  };
  try {
    const r = work();
    if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(undefined, fail);
  } catch (e) {
    fail(e);
  }
}
