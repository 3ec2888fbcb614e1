// Runs view state: the list, and the one run open in detail (refetched when its events arrive).
import { create } from 'zustand';
import type { z } from 'zod';
import type { RunSummary, RunDetail } from '../../../shared/api/kernel.js';
import { call, messageOf } from '../api/client.js';
import { coalesce } from './refetcher.js';

export type Run = z.infer<typeof RunSummary>;
export type RunFull = z.infer<typeof RunDetail>;

interface RunsState {
  runs: Run[];
  loaded: boolean;
  error: string | null;
  openId: string | null;
  detail: RunFull | null;
  detailError: string | null;
  refresh(): Promise<void>;
  refreshDetail(): Promise<void>;
  open(id: string | null): void;
  /** The list changed while off screen: the next look refetches it. */
  stale: boolean;
  markStale(): void;
}

export const useRuns = create<RunsState>((set, get) => {
  const refresh = coalesce(async () => {
    try {
      set({ stale: false });
      set({ runs: await call('runsList', { limit: 200 }), loaded: true, error: null });
    } catch (e) {
      set({ error: messageOf(e), loaded: true });
    }
  });
  const refreshDetail = coalesce(async () => {
    const id = get().openId;
    if (!id) return set({ detail: null });
    try {
      const detail = await call('runsShow', { id });
      if (get().openId === id) set({ detail, detailError: null });
    } catch (e) {
      if (get().openId === id) set({ detailError: messageOf(e) });
    }
  });
  return {
    runs: [],
    loaded: false,
    error: null,
    openId: null,
    detail: null,
    detailError: null,
    refresh,
    refreshDetail,
    stale: false,
    markStale: () => set({ stale: true }),
    open(id) {
      set({ openId: id, detail: null, detailError: null });
      void refreshDetail();
    },
  };
});
