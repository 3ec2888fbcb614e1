// The last resort of `nexus serve`: what happens to an error that no door's per-message guard caught.
//
// Decision: log it with its stack and keep serving. Every door answers each message under a guard, so nothing
// a caller sends arrives here; what does is a callback of NEXUS's own I/O (a socket or child-process event, a
// timer). The kernel's durable state is SQLite, changed in transactions that roll back when they throw, so one
// failed callback does not leave the record half-written; dying, on the other hand, would end every run in
// flight for everyone. But an error that repeats (MAX_FATAL within WINDOW_MS) says the process itself is broken:
// then NEXUS shuts down cleanly (doors closed, runs stopped, database closed) instead of limping on.
export const MAX_FATAL = 10;
export const WINDOW_MS = 60_000;

export interface LastResortOptions {
  log(line: string): void;
  /** Called once when errors repeat too fast: shut down cleanly. */
  onBroken(): void;
  now?: () => number;
  /** The process to watch (tests pass an EventEmitter). */
  target?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/** Install the handlers; returns the function that removes them. */
export function installLastResort(opts: LastResortOptions): () => void {
  const now = opts.now ?? Date.now;
  const target = opts.target ?? process;
  const recent: number[] = [];
  let broken = false;
  const seen = (kind: string, e: unknown) => {
    const text = e instanceof Error ? (e.stack ?? e.message) : String(e);
    const t = now();
    recent.push(t);
    while (recent.length && recent[0]! <= t - WINDOW_MS) recent.shift();
    try {
      opts.log(`nexus: ${kind} (still serving): ${text}`);
    } catch {
      /* nowhere to log: keep serving anyway */
    }
    if (!broken && recent.length >= MAX_FATAL) {
      broken = true;
      try {
        opts.log(`nexus: ${MAX_FATAL} internal errors within ${WINDOW_MS / 1000} s: shutting down cleanly.`);
      } catch {
        /* nowhere to log */
      }
      opts.onBroken();
    }
  };
  const onException = (e: unknown) => seen('internal error', e);
  const onRejection = (e: unknown) => seen('unhandled rejection', e);
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
