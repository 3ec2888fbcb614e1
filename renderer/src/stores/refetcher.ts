// Events say "something changed"; the kernel is the source of truth, so a store refetches. A burst of events
// (a chain of 50 hops) must not become 50 overlapping fetches: at most one in flight and one queued behind it.
export function coalesce(fetch: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await fetch();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return run;
}
