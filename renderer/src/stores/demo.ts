// The offline demo's view state: what demoStart said will happen, until the person dismisses it.
import { create } from 'zustand';
import { call } from '../api/client.js';
import { errorMessage } from '../../../shared/errors.js';

interface DemoState {
  expect: string | null;
  starting: boolean;
  error: string | null;
  start(): Promise<boolean>;
  dismiss(): void;
}

export const useDemo = create<DemoState>((set) => ({
  expect: null,
  starting: false,
  error: null,
  async start() {
    set({ starting: true, error: null });
    try {
      const r = await call('demoStart', {});
      set({ expect: r.expect, starting: false });
      return true;
    } catch (e) {
      set({ error: errorMessage(e), starting: false });
      return false;
    }
  },
  dismiss: () => set({ expect: null }),
}));
