// The preload, with Electron's two objects it uses stood in for: it exposes exactly one object, `nexus`, whose
// functions are the API's methods (each on its own IPC channel, input unchanged) plus onEvent (the event
// channel, removed again on unsubscribe). The real Electron window is covered by e2e/electron.spec.ts where a
// binary exists.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { METHOD_NAMES } from '../shared/api/method-names.js';
import type { NexusApi } from '../shared/api/index.js';

const exposed = new Map<string, unknown>();
const invoked: Array<[string, unknown]> = [];
const listeners = new Map<string, Set<(...a: unknown[]) => void>>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
  ipcRenderer: {
    invoke: async (channel: string, input: unknown) => (invoked.push([channel, input]), { ok: true, value: channel }),
    on: (channel: string, l: (...a: unknown[]) => void) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(l)),
    removeListener: (channel: string, l: (...a: unknown[]) => void) => listeners.get(channel)?.delete(l),
  },
}));

let nexus: NexusApi;
beforeAll(async () => {
  await import('./preload.js');
  nexus = exposed.get('nexus') as NexusApi;
});

describe('the preload', () => {
  it('exposes only window.nexus: one function per API method, and onEvent', () => {
    expect([...exposed.keys()]).toEqual(['nexus']);
    expect(Object.keys(nexus).sort()).toEqual([...METHOD_NAMES, 'onEvent'].sort());
    for (const name of METHOD_NAMES) expect(typeof nexus[name]).toBe('function');
  });

  it('sends each method on its own channel with the input unchanged, and answers what main answered', async () => {
    expect(await nexus.agentsCreate({ name: 'a', mode: 'ask', model: { provider: 'anthropic', baseURL: 'http://x', model: 'm' } })).toEqual({
      ok: true,
      value: 'nexus:agentsCreate',
    });
    expect(await nexus.status({})).toEqual({ ok: true, value: 'nexus:status' });
    expect(invoked).toEqual([
      ['nexus:agentsCreate', { name: 'a', mode: 'ask', model: { provider: 'anthropic', baseURL: 'http://x', model: 'm' } }],
      ['nexus:status', {}],
    ]);
  });

  it('delivers events from the event channel until unsubscribed', () => {
    const got: unknown[] = [];
    const off = nexus.onEvent((e) => got.push(e));
    const [channel, set] = [...listeners.entries()][0];
    expect(channel).toBe('nexus:event');
    for (const l of set) l({}, { type: 'runs_changed' });
    off();
    expect(set.size).toBe(0);
    expect(got).toEqual([{ type: 'runs_changed' }]);
  });
});
