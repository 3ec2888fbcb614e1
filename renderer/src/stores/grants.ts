// The session-trust grants the kernel holds (Settings ▸ Agents ▸ Grants, the agent page's tester). Refetched on
// agents_changed, which the kernel sends when a grant is added or taken back.
import { create } from 'zustand';
import type { MethodOutput } from '../../../shared/api/index.js';
import { call } from '../api/client.js';
import { coalesce } from './refetcher.js';
import { errorMessage } from '../../../shared/errors.js';

export type TrustGrantView = MethodOutput<'trustList'>['grants'][number];

interface GrantsState {
  trust: TrustGrantView[];
  loaded: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

export const useGrants = create<GrantsState>((set) => ({
  trust: [],
  loaded: false,
  error: null,
  refresh: coalesce(async () => {
    try {
      set({ trust: (await call('trustList', {})).grants, loaded: true, error: null });
    } catch (e) {
      set({ error: errorMessage(e), loaded: true });
    }
  }),
}));
