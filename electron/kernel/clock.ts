// Time, injected (DESIGN: the park clock must be testable). The kernel never calls Date.now or setTimeout
// directly; tests pass a ManualClock and move time themselves.
export type TimerHandle = { readonly id: number } | ReturnType<typeof setTimeout>;

export interface Clock {
  now(): number;
  /** Set on a shifted clock only (`offsetClock`): how far ahead of the system clock it reads, in ms. */
  readonly offsetMs?: number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

// Node caps timers at 2^31-1 ms (~24.8 days); longer waits re-arm in steps.
const MAX_DELAY = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    // Unref'd: a pending 24 h park must not keep a CLI or test process alive; `serve` stays up by its sockets.
    const h = setTimeout(fn, Math.min(Math.max(0, ms), MAX_DELAY));
    h.unref?.();
    return h;
  },
  clearTimeout(h) {
    clearTimeout(h as ReturnType<typeof setTimeout>);
  },
};

/**
 * The system clock read `offsetMs` ahead (or behind): a testing aid for `nexus serve` (NEXUS_CLOCK_OFFSET_MS,
 * honoured only with NEXUS_TESTING=1). Restarting with a day's offset makes every 24 h deadline that fell
 * due in that day expire at start, as it would for an app that was closed that long. Timers are not shifted.
 */
export function offsetClock(offsetMs: number): Clock {
  return { ...systemClock, offsetMs, now: () => Date.now() + offsetMs };
}

interface ManualTimer {
  id: number;
  at: number;
  fn: () => void;
}

/** A clock that moves only when told to; `advance` fires due timers in time order. */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: ManualTimer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: ++this.seq, at: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    return { id: timer.id };
  }
  clearTimeout(h: TimerHandle): void {
    const id = (h as { id: number }).id;
    this.timers = this.timers.filter((t) => t.id !== id);
  }
  /** Move time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = target;
  }
  /** Set the time without firing anything (e.g. "the app was closed for a day"). */
  set(ms: number): void {
    this.t = ms;
  }
  pending(): number {
    return this.timers.length;
  }
}
