// Runs view state: the list, and the one run open in detail (refetched when its events arrive). Both page:
// the list and a run's rows load a first page, and "Load more" reads the next one after the last loaded.
import { create } from 'zustand';
import type { z } from 'zod';
import type { RunSummary, RunDetail } from '../../../shared/api/runs.js';
import { call } from '../api/client.js';
import type { MethodInput } from '../../../shared/api/index.js';
import { coalesce } from './refetcher.js';
import { errorMessage } from '../../../shared/errors.js';

export type Run = z.infer<typeof RunSummary>;
/** What the list shows: one agent, one state, one client (`none`: no client), each optional. */
export type RunsFilter = Pick<NonNullable<MethodInput<'runsList'>>, 'agent' | 'status' | 'client'>;
export type RunFull = z.infer<typeof RunDetail>;

/** Runs per page of the list, and rows per page of a run (the kernel's caps: 1000 runs, 500 rows a call). */
export const RUNS_PAGE = 100;
export const ROWS_PAGE = 200;
const RUNS_MAX = 1000;
const ROWS_MAX = 500;

interface RunsState {
  runs: Run[];
  loaded: boolean;
  error: string | null;
  /** The last page of the list came back full: older runs may follow. */
  hasMore: boolean;
  loadingMore: boolean;
  openId: string | null;
  detail: RunFull | null;
  detailError: string | null;
  loadingMoreRows: boolean;
  /** What the last "Load more" of the list, and of a run's rows, did in words (announced politely). */
  listNote: string;
  rowsNote: string;
  refresh(): Promise<void>;
  refreshDetail(): Promise<void>;
  /** The next page of older runs; resolves to the runs it added. */
  loadMore(): Promise<Run[]>;
  /** The next page of the open run's rows; resolves to the rows it added. */
  loadMoreRows(): Promise<RunFull['rows']>;
  open(id: string | null): void;
  /** The list changed while off screen: the next look refetches it. */
  stale: boolean;
  markStale(): void;
  filter: RunsFilter;
  /** Show only the runs this filter names (read afresh from the kernel, first page). */
  setFilter(f: RunsFilter): void;
}

/** Items of `next` not already in `have` (an event's refetch can cross a page load). */
const fresh = <T extends { id: string }>(have: readonly T[], next: readonly T[]): T[] => {
  const ids = new Set(have.map((x) => x.id));
  return next.filter((x) => !ids.has(x.id));
};
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export const useRuns = create<RunsState>((set, get) => {
  const refresh = coalesce(async () => {
    try {
      set({ stale: false });
      // As many as are shown (a refresh must not drop the pages a person loaded), within one call's cap.
      const limit = Math.min(RUNS_MAX, Math.max(RUNS_PAGE, get().runs.length));
      const filter = get().filter;
      const runs = await call('runsList', { limit, ...filter });
      if (get().filter !== filter) return; // the filter changed meanwhile: its own refresh answers
      set({ runs, hasMore: runs.length === limit, loaded: true, error: null });
    } catch (e) {
      set({ error: errorMessage(e), loaded: true });
    }
  });
  const refreshDetail = coalesce(async () => {
    const id = get().openId;
    if (!id) return set({ detail: null });
    try {
      const shown = get().detail?.id === id ? get().detail!.rows.length : 0;
      const detail = await call('runsShow', { id, rows_limit: Math.min(ROWS_MAX, Math.max(ROWS_PAGE, shown)) });
      // Rows loaded past one call's cap are read again page by page, so a refresh keeps them.
      while (detail.rows_next_cursor && detail.rows.length < shown) {
        const page = await call('runsRows', { run_id: id, cursor: detail.rows_next_cursor, limit: ROWS_MAX });
        detail.rows.push(...page.items);
        detail.rows_next_cursor = page.next_cursor;
      }
      if (get().openId === id) set({ detail, detailError: null });
    } catch (e) {
      if (get().openId === id) set({ detailError: errorMessage(e) });
    }
  });
  return {
    runs: [],
    loaded: false,
    error: null,
    hasMore: false,
    loadingMore: false,
    openId: null,
    detail: null,
    detailError: null,
    loadingMoreRows: false,
    listNote: '',
    rowsNote: '',
    refresh,
    refreshDetail,
    async loadMore() {
      const { runs, hasMore, loadingMore } = get();
      if (!hasMore || loadingMore || !runs.length) return [];
      set({ loadingMore: true });
      try {
        const filter = get().filter;
        const page = await call('runsList', { limit: RUNS_PAGE, cursor: runs[runs.length - 1].id, ...filter });
        if (get().filter !== filter) return [];
        const added = fresh(get().runs, page);
        const more = page.length === RUNS_PAGE;
        set({
          runs: [...get().runs, ...added],
          hasMore: more,
          error: null,
          listNote: `Loaded ${plural(added.length, 'more run')}; ${get().runs.length + added.length} shown${more ? '' : ', all runs loaded'}.`,
        });
        return added;
      } catch (e) {
        set({ error: errorMessage(e), listNote: `Could not load more runs: ${errorMessage(e)}` });
        return [];
      } finally {
        set({ loadingMore: false });
      }
    },
    async loadMoreRows() {
      const { detail, loadingMoreRows } = get();
      if (!detail?.rows_next_cursor || loadingMoreRows) return [];
      set({ loadingMoreRows: true });
      try {
        const page = await call('runsRows', { run_id: detail.id, cursor: detail.rows_next_cursor, limit: ROWS_PAGE });
        const now = get().detail;
        if (now?.id !== detail.id) return [];
        const added = fresh(now.rows, page.items);
        const rows = [...now.rows, ...added];
        set({
          detail: { ...now, rows, rows_next_cursor: page.next_cursor },
          detailError: null,
          rowsNote: `Loaded ${plural(added.length, 'more row')}; ${rows.length} shown${page.next_cursor ? '' : ', all rows loaded'}.`,
        });
        return added;
      } catch (e) {
        set({ rowsNote: `Could not load more rows: ${errorMessage(e)}` });
        return [];
      } finally {
        set({ loadingMoreRows: false });
      }
    },
    stale: false,
    markStale: () => set({ stale: true }),
    filter: {},
    setFilter(f) {
      // Unset keys are left out, so `{}` means every run.
      const filter: RunsFilter = {
        ...(f.agent ? { agent: f.agent } : {}),
        ...(f.status ? { status: f.status } : {}),
        ...(f.client ? { client: f.client } : {}),
      };
      set({ filter, runs: [], loaded: false, hasMore: false, listNote: '' });
      void refresh();
    },
    open(id) {
      set({ openId: id, detail: null, detailError: null, rowsNote: '' });
      void refreshDetail();
    },
  };
});
