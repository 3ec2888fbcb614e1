// Inbox view state: the pending cards as the kernel last told us, which one is selected, what is being answered.
import { create } from 'zustand';
import type { z } from 'zod';
import type { InboxItem as InboxItemSchema } from '../../../shared/api/kernel.js';
import { call, messageOf } from '../api/client.js';
import { coalesce } from './refetcher.js';

export type InboxItem = z.infer<typeof InboxItemSchema>;

interface InboxState {
  items: InboxItem[];
  loaded: boolean;
  error: string | null;
  selectedId: string | null;
  /** Ids with an answer in flight: their buttons are disabled so a double press sends one answer. */
  busy: Record<string, boolean>;
  lastAnswer: { id: string; text: string; ok: boolean } | null;
  refresh(): Promise<void>;
  select(id: string | null): void;
  move(delta: number): void;
  approve(id: string, trust?: boolean): Promise<void>;
  deny(id: string, reason?: string): Promise<void>;
  retry(id: string): Promise<void>;
  abandon(id: string): Promise<void>;
  answer(id: string, text: string): Promise<void>;
}

/** Keep the selection on the same card, or its neighbour when it left the list. */
export function reselect(prev: InboxItem[], next: InboxItem[], selectedId: string | null): string | null {
  if (next.length === 0) return null;
  if (selectedId && next.some((i) => i.id === selectedId)) return selectedId;
  const at = selectedId ? prev.findIndex((i) => i.id === selectedId) : -1;
  return next[Math.min(Math.max(at, 0), next.length - 1)].id;
}

export const useInbox = create<InboxState>((set, get) => {
  const refresh = coalesce(async () => {
    try {
      const items = await call('inboxList', {});
      // For bench/window.bench.ts: when the first list arrived (its paint is marked by InboxView).
      if (!get().loaded && typeof performance !== 'undefined') performance.mark('nexus:inbox-data');
      set((s) => ({ items, loaded: true, error: null, selectedId: reselect(s.items, items, s.selectedId) }));
    } catch (e) {
      set({ error: messageOf(e), loaded: true });
    }
  });
  const answering =
    (label: string, fn: (id: string, ...a: never[]) => Promise<unknown>) =>
    async (id: string, ...args: never[]) => {
      if (get().busy[id]) return;
      set((s) => ({ busy: { ...s.busy, [id]: true } }));
      try {
        await fn(id, ...args);
        set({ lastAnswer: { id, text: label, ok: true } });
      } catch (e) {
        set({ lastAnswer: { id, text: messageOf(e), ok: false } });
      } finally {
        set((s) => {
          const busy = { ...s.busy };
          delete busy[id];
          return { busy };
        });
        await refresh();
      }
    };
  return {
    items: [],
    loaded: false,
    error: null,
    selectedId: null,
    busy: {},
    lastAnswer: null,
    refresh,
    select: (id) => set({ selectedId: id }),
    move(delta) {
      const { items, selectedId } = get();
      if (!items.length) return;
      const at = items.findIndex((i) => i.id === selectedId);
      const next = Math.min(Math.max((at < 0 ? 0 : at) + delta, 0), items.length - 1);
      set({ selectedId: items[next].id });
    },
    approve: answering('Approved', (id: string, trust?: boolean) => call('inboxApprove', { id, trust_session: Boolean(trust) })) as InboxState['approve'],
    deny: answering('Denied', (id: string, reason?: string) =>
      call('inboxDeny', reason?.trim() ? { id, reason: reason.trim() } : { id }),
    ) as InboxState['deny'],
    retry: answering('Retrying', (id: string) => call('inboxRetry', { id })) as InboxState['retry'],
    abandon: answering('Abandoned', (id: string) => call('inboxAbandon', { id })) as InboxState['abandon'],
    answer: answering('Answered', (id: string, text: string) => call('inboxAnswer', { id, text })) as InboxState['answer'],
  };
});
