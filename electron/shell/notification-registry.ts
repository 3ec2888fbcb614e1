// OS notifications must stay referenced until the user acts on them: Electron lets an unreferenced
// Notification be garbage-collected, and its click then reaches nobody (the window is never brought
// forward). The registry holds each one until it is clicked, closed or fails. Electron-free: main.ts
// passes in the Notification objects (anything with `once`).
export interface NotificationLike {
  once(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
}

export interface NotificationRegistry<N extends NotificationLike> {
  keep(note: N, onClick: () => void): N;
  readonly size: number;
}

export function createNotificationRegistry<N extends NotificationLike>(limit = 200): NotificationRegistry<N> {
  const live = new Set<N>();
  return {
    keep(note, onClick) {
      live.add(note);
      // Bounded: a flood of cards cannot grow memory without end; the oldest is let go first.
      if (live.size > limit) live.delete(live.values().next().value as N);
      note.once('click', () => {
        live.delete(note);
        onClick();
      });
      note.once('close', () => live.delete(note));
      note.once('failed', () => live.delete(note));
      return note;
    },
    get size() {
      return live.size;
    },
  };
}
