// The kernel's event bus: every NexusEvent (shared/api/index.ts) the doors push to windows and CLI waiters.
import type { NexusEvent } from '../../shared/api/index.js';
import { log } from '../log.js';

export type Listener = (event: NexusEvent) => void;

export class EventBus {
  private listeners = new Set<Listener>();

  /** Subscribe; returns the unsubscribe function. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: NexusEvent): void {
    for (const l of [...this.listeners]) {
      // A listener's failure is its own: it never reaches the kernel path that emitted.
      try {
        l(event);
      } catch (e) {
        log.error('an event listener failed', e);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
