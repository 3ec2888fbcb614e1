// The undo grace: an Approve or Deny is held in the window for a few seconds before it is sent, with Undo
// in the toast (as Gmail and Linear do). The length is this window's setting (localStorage; 0 sends at
// once). A held answer is only in this window: closing it sends what is held (pagehide), best effort.
import { create } from 'zustand';

export const GRACE_KEY = 'nexus.inbox.undoGraceMs';
export const GRACE_CHOICES = [0, 3000, 5000, 10000] as const;
const DEFAULT_MS = 3000;

export function graceMs(): number {
  const raw = Number(globalThis.localStorage?.getItem(GRACE_KEY) ?? DEFAULT_MS);
  return Number.isInteger(raw) && raw >= 0 && raw <= 60_000 ? raw : DEFAULT_MS;
}
export function setGraceMs(ms: number): void {
  globalThis.localStorage?.setItem(GRACE_KEY, String(ms));
}

export interface Held {
  id: string;
  text: string;
  /** Epoch ms at which it is sent. */
  until: number;
}
interface GraceState {
  /** Answers held now, oldest first; the toast offers Undo for the newest. */
  held: Held[];
}
export const useGrace = create<GraceState>(() => ({ held: [] }));

const waiting = new Map<string, { timer: ReturnType<typeof setTimeout>; settle(send: boolean): void }>();

/** Resolves true when the grace ends (send it), false when the person pressed Undo. */
export function holdAnswer(id: string, text: string, ms = graceMs()): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (send: boolean) => {
      const w = waiting.get(id);
      if (!w) return;
      clearTimeout(w.timer);
      waiting.delete(id);
      useGrace.setState((s) => ({ held: s.held.filter((h) => h.id !== id) }));
      resolve(send);
    };
    waiting.set(id, { timer: setTimeout(() => settle(true), ms), settle });
    useGrace.setState((s) => ({ held: [...s.held.filter((h) => h.id !== id), { id, text, until: Date.now() + ms }] }));
  });
}

/** Undo one held answer (the newest when no id is given). */
export function undoAnswer(id = useGrace.getState().held.at(-1)?.id): boolean {
  const w = id ? waiting.get(id) : undefined;
  w?.settle(false);
  return Boolean(w);
}

/** Send every held answer now (the window is closing). */
export function flushHeld(): void {
  for (const w of [...waiting.values()]) w.settle(true);
}
if (typeof window !== 'undefined') window.addEventListener('pagehide', flushHeld);
