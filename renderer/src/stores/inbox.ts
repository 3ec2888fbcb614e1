// Inbox view state: the pending cards loaded so far (page by page), the filter and grouping, the card shown,
// the cards checked for a bulk answer, and what is being answered. The kernel pushes each change
// (applyPushed); the window refetches only at start, on a new filter, and after a lost connection.
import { create } from 'zustand';
import { call } from '../api/client.js';
import { coalesce } from './refetcher.js';
import { applyChange, reselect, type InboxFilter, type InboxItem } from './inbox-list.js';
import { makeAnswering } from './inbox-answer.js';
import { errorMessage } from '../../../shared/errors.js';
import type { InboxState, Trust } from './inbox-state.js';

export { reselect, type InboxItem, type InboxFilter };
export type { GroupBy, InboxState, InboxSummary } from './inbox-state.js';

/** Cards per page: enough to fill any window several times, small enough to arrive in one quick frame. */
export const PAGE_SIZE = 200;

const pageInput = (filter: InboxFilter, cursor?: string) => ({ ...filter, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
/** The filter without the keys a group chip sets (agent, run, chain); the same object when it has none. */
const dropGroup = (f: InboxFilter): InboxFilter => {
  if (f.agent === undefined && f.run_id === undefined && f.chain_id === undefined) return f;
  const { agent: _a, run_id: _r, chain_id: _c, ...rest } = f;
  return rest;
};
const filtered = (f: InboxFilter) => Object.values(f).some((v) => v !== undefined && v !== '');

export const useInbox = create<InboxState>((set, get) => {
  const refresh = coalesce(async () => {
    try {
      const filter = get().filter;
      const items = await call('inboxList', pageInput(filter));
      if (get().filter !== filter) return; // a newer filter's fetch follows
      // For bench/window.bench.ts: when the first list arrived (its paint is marked by InboxView).
      if (!get().loaded && typeof performance !== 'undefined') performance.mark('nexus:inbox-data');
      set((s) => ({ items, hasMore: items.length === PAGE_SIZE, loaded: true, error: null, selectedId: reselect(s.items, items, s.selectedId) }));
      if (filtered(filter) || get().groupBy !== 'none') void refreshSummary();
    } catch (e) {
      set({ error: errorMessage(e), loaded: true });
    }
  });
  const refreshSummary = coalesce(async () => {
    try {
      const filter = get().filter;
      const summary = await call('inboxSummary', filter);
      if (get().filter !== filter) return;
      const group = dropGroup(filter);
      if (summary.total === 0 && group !== filter) {
        // Its chip left with its last card: a filter nobody can see is a trap, so it goes too.
        set({ filterNote: 'The group you picked has no pending cards left, so its filter was removed.' });
        get().setFilter(group, true);
        return;
      }
      set({ summary });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  });
  let loadingMore = false;
  // Counts of a filtered or grouped view follow pushed changes, at most a few times a second.
  let summaryTimer: ReturnType<typeof setTimeout> | null = null;
  const summaryLater = () => {
    if (summaryTimer || (!filtered(get().filter) && get().groupBy === 'none')) return;
    summaryTimer = setTimeout(() => {
      summaryTimer = null;
      void refreshSummary();
    }, 300);
  };
  const answering = makeAnswering(get, set);
  return {
    items: [],
    hasMore: false,
    loaded: false,
    error: null,
    selectedId: null,
    filter: {},
    groupBy: 'none',
    summary: null,
    filterNote: null,
    checked: {},
    busy: {},
    lastAnswer: null,
    answered: 0,
    refresh,
    refreshSummary,
    async loadMore() {
      const { items, hasMore, filter } = get();
      if (!hasMore || !items.length || loadingMore) return;
      loadingMore = true;
      try {
        const next = await call('inboxList', pageInput(filter, items[items.length - 1].id));
        if (get().filter !== filter) return;
        set((s) => {
          const have = new Set(s.items.map((i) => i.id));
          return { items: [...s.items, ...next.filter((i) => !have.has(i.id))], hasMore: next.length === PAGE_SIZE };
        });
      } catch (e) {
        set({ error: errorMessage(e) });
      } finally {
        loadingMore = false;
      }
    },
    applyPushed(added, removed) {
      set((s) => {
        const next = applyChange(s, added, removed, s.filter);
        if (next.items === s.items) return {};
        let checked = s.checked;
        if (removed.some((r) => checked[r.id])) {
          checked = { ...checked };
          for (const r of removed) delete checked[r.id];
        }
        return { items: next.items, selectedId: reselect(s.items, next.items, s.selectedId), checked };
      });
      summaryLater();
    },
    setFilter(filter, keepNote) {
      set((s) => ({ filter, checked: {}, summary: null, filterNote: keepNote ? s.filterNote : null }));
      void refresh();
      void refreshSummary();
    },
    setGroupBy(groupBy) {
      set({ groupBy });
      if (groupBy !== 'none') void refreshSummary();
    },
    select: (id) => set({ selectedId: id }),
    move(delta) {
      const { items, selectedId, hasMore } = get();
      if (!items.length) return;
      const at = items.findIndex((i) => i.id === selectedId);
      const next = Math.min(Math.max((at < 0 ? 0 : at) + delta, 0), items.length - 1);
      set({ selectedId: items[next].id });
      if (hasMore && next >= items.length - 20) void get().loadMore();
    },
    check: (id, on) =>
      set((s) => {
        const checked = { ...s.checked };
        if (on) checked[id] = true;
        else delete checked[id];
        return { checked };
      }),
    async checkAllMatching() {
      const ids = await call('inboxIds', get().filter);
      set({ checked: Object.fromEntries(ids.map((id) => [id, true as const])) });
      return ids.length;
    },
    clearChecked: () => set({ checked: {} }),
    async bulk(action, reason) {
      const ids = Object.keys(get().checked);
      if (!ids.length) return { done: 0, failed: 0 };
      const r = await call('inboxBulk', { ids, action, ...(action === 'deny' && reason?.trim() ? { reason: reason.trim() } : {}) });
      const verb = action === 'approve' ? 'Approved' : 'Denied';
      set((s) => ({
        checked: {},
        answered: s.answered + 1,
        lastAnswer: {
          id: 'bulk',
          ok: r.failed.length === 0,
          text: `${verb} ${r.done.length} card${r.done.length === 1 ? '' : 's'}${r.failed.length ? `; ${r.failed.length} could not be answered (${r.failed[0].message})` : ''}`,
        },
      }));
      return { done: r.done.length, failed: r.failed.length };
    },
    // trust_session defaults to false in the contract: sent only when trusting (22 B less per approval on the wire).
    approve: answering('Approved', (id: string, trust?: Trust) =>
      call('inboxApprove', trust === 'call' ? { id, trust_session: true, trust_scope: 'call' } : trust ? { id, trust_session: true } : { id }),
    ) as InboxState['approve'],
    deny: answering('Denied', (id: string, reason?: string) =>
      call('inboxDeny', reason?.trim() ? { id, reason: reason.trim() } : { id }),
    ) as InboxState['deny'],
    retry: answering('Retrying', (id: string) => call('inboxRetry', { id })) as InboxState['retry'],
    abandon: answering('Abandoned', (id: string) => call('inboxAbandon', { id })) as InboxState['abandon'],
    answer: answering('Answered', (id: string, text: string) => call('inboxAnswer', { id, text })) as InboxState['answer'],
  };
});
