// Top-bar state: the pending count, whether Stop all is engaged, and the connection to the kernel.
import { create } from 'zustand';
import { call } from '../api/client.js';
import { coalesce } from './refetcher.js';
import { errorMessage } from '../../../shared/errors.js';

interface StatusState {
  pending: number;
  stopAll: boolean;
  /** Runs the last Stop all from this window force-stopped (null: not pressed here). */
  lastStopped: number | null;
  runsInFlight: number;
  dataDir: string;
  version: string;
  connection: 'connecting' | 'open' | 'closed' | 'locked';
  error: string | null;
  refresh(): Promise<void>;
  setPending(n: number): void;
  setConnection(c: StatusState['connection']): void;
  stopEverything(): Promise<number>;
  resume(): Promise<void>;
}

export const useStatus = create<StatusState>((set) => {
  const refresh = coalesce(async () => {
    try {
      const s = await call('status', {});
      set({ pending: s.pending, stopAll: s.stop_all, runsInFlight: s.runs_in_flight, dataDir: s.data_dir, version: s.version, error: null });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  });
  return {
    pending: 0,
    stopAll: false,
    lastStopped: null,
    runsInFlight: 0,
    dataDir: '',
    version: '',
    connection: 'connecting',
    error: null,
    refresh,
    setPending: (pending) => set({ pending }),
    setConnection: (connection) => set({ connection }),
    async stopEverything() {
      const r = await call('stopAll', {});
      set({ stopAll: true, lastStopped: r.stopped_runs });
      await refresh();
      return r.stopped_runs;
    },
    async resume() {
      await call('resume', {});
      set({ stopAll: false, lastStopped: null });
      await refresh();
    },
  };
});
