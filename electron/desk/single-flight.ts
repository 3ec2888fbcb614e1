// Work that runs one pass at a time, and once more when it is asked for while a pass runs: the outbox drain and
// the answers' catch-up both run this way, so a burst of wake-ups costs the pass in flight plus one, never a pile.
export class SingleFlight {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    /** True once the owner closed: no new pass starts and no further one is run. */
    private readonly stopped: () => boolean,
    private readonly failed: (e: unknown) => void,
    /** After the last pass of a flight, whether it ended well or not. */
    private readonly settled: () => void = () => {},
  ) {}

  /** Start a pass now, or ask the one running for one more. */
  kick(): void {
    if (this.stopped()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.stopped());
    })()
      .catch((e: unknown) => this.failed(e))
      .finally(() => {
        this.running = null;
        this.settled();
      });
  }

  /** The flight in progress, if any (it never rejects). */
  get current(): Promise<void> | null {
    return this.running;
  }
}
