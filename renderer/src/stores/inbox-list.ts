// The inbox list's pure operations: a pushed change applied in place, and whether a card fits the filter.
// The kernel pushes added cards whole and closed ones by id (shared/api/index.ts), so an answer costs the
// window one small event, not a refetch of every pending card.
import type { z } from 'zod';
import type { InboxItem as InboxItemSchema, InboxFilter as InboxFilterSchema } from '../../../shared/api/inbox.js';

export type InboxItem = z.infer<typeof InboxItemSchema>;
export type InboxFilter = z.infer<typeof InboxFilterSchema>;

/** Whether a card fits a filter (the same test the kernel's query makes). */
export function fits(item: InboxItem, f: InboxFilter): boolean {
  if (f.agent !== undefined && item.agent !== f.agent) return false;
  if (f.kind !== undefined && item.kind !== f.kind) return false;
  if (f.run_id !== undefined && item.run_id !== f.run_id) return false;
  if (f.chain_id !== undefined && item.chain_id !== f.chain_id) return false;
  if (f.text) {
    const t = f.text.trim().toLowerCase();
    if (t && !item.tool.toLowerCase().includes(t) && !item.target.toLowerCase().includes(t)) return false;
  }
  return true;
}

export interface ListState {
  items: InboxItem[];
  /** More pending cards exist past the last one loaded. */
  hasMore: boolean;
}

/**
 * Apply a pushed change: closed cards leave, added ones join at the end (the list is oldest first) when they
 * fit the filter and the list is loaded to its end (else the next page brings them). Ids already listed are
 * not added twice (an event can cross a page fetch).
 */
export function applyChange(s: ListState, added: readonly InboxItem[], removed: readonly { id: string }[], filter: InboxFilter): ListState {
  const gone = new Set(removed.map((r) => r.id));
  let items = gone.size ? s.items.filter((i) => !gone.has(i.id)) : s.items;
  if (!s.hasMore) {
    const have = new Set(items.map((i) => i.id));
    const fresh = added.filter((a) => !have.has(a.id) && !gone.has(a.id) && fits(a, filter));
    if (fresh.length) items = [...items, ...fresh];
  }
  return { items, hasMore: s.hasMore };
}

/** Keep the selection on the same card, or its neighbour when it left the list. */
export function reselect(prev: InboxItem[], next: InboxItem[], selectedId: string | null): string | null {
  if (next.length === 0) return null;
  if (selectedId && next.some((i) => i.id === selectedId)) return selectedId;
  const at = selectedId ? prev.findIndex((i) => i.id === selectedId) : -1;
  return next[Math.min(Math.max(at, 0), next.length - 1)].id;
}

/** The short name of a card a person reads in a toast or a confirmation: who, what, on what. */
export function cardLabel(item: Pick<InboxItem, 'agent' | 'tool' | 'target'>): string {
  const target = item.target.length > 60 ? `${item.target.slice(0, 57)}…` : item.target;
  return `${item.agent ?? 'your run'} · ${item.tool}${target ? ` ${target}` : ''}`;
}
