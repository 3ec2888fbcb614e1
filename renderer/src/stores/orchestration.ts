// Settings ▸ Agents ▸ Orchestration: the settings, the entitlement (read-only) and Recent chains.
import { create } from 'zustand';
import type { z } from 'zod';
import type { SettingsView, EntitlementView, Chain, SettingKey } from '../../../shared/api/orchestration.js';
import { call } from '../api/client.js';
import { coalesce } from './refetcher.js';
import { errorMessage } from '../../../shared/errors.js';

export type Settings = z.infer<typeof SettingsView>;
export type Entitlement = z.infer<typeof EntitlementView>;
export type ChainView = z.infer<typeof Chain>;
export type SettingName = z.infer<typeof SettingKey>;

interface OrchestrationState {
  settings: Settings | null;
  entitlement: Entitlement | null;
  chains: ChainView[];
  chainsLoaded: boolean;
  error: string | null;
  chainsError: string | null;
  saving: Partial<Record<SettingName, boolean>>;
  refreshSettings(): Promise<void>;
  refreshChains(): Promise<void>;
  set(key: SettingName, value: unknown): Promise<void>;
  clearChains(): Promise<void>;
}

export const useOrchestration = create<OrchestrationState>((set) => {
  const refreshSettings = coalesce(async () => {
    try {
      const [settings, entitlement] = await Promise.all([call('settingsGet', {}), call('entitlementsShow', {})]);
      set({ settings, entitlement, error: null });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  });
  const refreshChains = coalesce(async () => {
    try {
      set({ chains: await call('chainsList', {}), chainsLoaded: true, chainsError: null });
    } catch (e) {
      set({ chainsError: errorMessage(e), chainsLoaded: true });
    }
  });
  return {
    settings: null,
    entitlement: null,
    chains: [],
    chainsLoaded: false,
    error: null,
    chainsError: null,
    saving: {},
    refreshSettings,
    refreshChains,
    async set(key, value) {
      set((s) => ({ saving: { ...s.saving, [key]: true } }));
      try {
        const settings = await call('settingsSet', { key, value });
        set({ settings, error: null });
      } catch (e) {
        set({ error: errorMessage(e) });
      } finally {
        set((s) => ({ saving: { ...s.saving, [key]: false } }));
      }
    },
    async clearChains() {
      try {
        await call('chainsClear', {});
      } catch (e) {
        set({ chainsError: errorMessage(e) });
      }
      await refreshChains();
    },
  };
});
