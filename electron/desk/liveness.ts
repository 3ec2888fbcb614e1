// Whether this machine hears its desk: when it last did, the last error, and whether it has been silent for
// longer than silenceStopS. Losing the desk is a stop, not a licence: silent too long, governed hops stop here
// (the client reports it as the desk's Stop all) until the desk is heard again.
import { errorMessage } from '../../shared/errors.js';

export class DeskLiveness {
  private lastHeard: number | null = null;
  private readonly startedAt = Date.now();
  private connected = false;
  private lastError: string | null = null;

  constructor(private readonly silenceStopS: number) {}

  /** Anything from the desk: a heartbeat answered, a wake-up, a (re)connected listener. */
  heard(): void {
    this.lastHeard = Date.now();
    this.connected = true;
    this.lastError = null;
  }

  lost(e: unknown): void {
    this.connected = false;
    this.lastError = errorMessage(e);
  }

  /** Silent for longer than silenceStopS (counted from the start until the desk is first heard). */
  silent(): boolean {
    return Date.now() - (this.lastHeard ?? this.startedAt) > this.silenceStopS * 1000;
  }

  /** What `desk status` says of the link. */
  view(): { connected: boolean; last_heard_at: string | null; last_error: string | null } {
    return {
      connected: this.connected,
      last_heard_at: this.lastHeard === null ? null : new Date(this.lastHeard).toISOString(),
      last_error: this.lastError,
    };
  }
}
