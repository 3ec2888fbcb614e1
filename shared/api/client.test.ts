// createClient over a recording transport: every method of the table is a function that sends its own name
// and the input unchanged, answers what the transport answered (failures included), and events pass through.
import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import { methods, type NexusEvent, type Result } from './index.js';

describe('createClient', () => {
  it('has one function per method, sending its name and input', async () => {
    const sent: Array<[string, unknown]> = [];
    const api = createClient({
      call: async (method, input) => {
        sent.push([method, input]);
        return method === 'agentsGet' ? { ok: false, error: { code: 'not_found', message: 'No agent "x".' } } : { ok: true, value: method };
      },
    });
    for (const name of Object.keys(methods)) expect(typeof (api as unknown as Record<string, unknown>)[name]).toBe('function');
    expect(await api.status({})).toEqual({ ok: true, value: 'status' });
    expect(await api.agentsGet({ name: 'x' })).toEqual({ ok: false, error: { code: 'not_found', message: 'No agent "x".' } });
    expect(await api.runsShow({ id: 'r1' })).toEqual({ ok: true, value: 'runsShow' });
    expect(sent).toEqual([
      ['status', {}],
      ['agentsGet', { name: 'x' }],
      ['runsShow', { id: 'r1' }],
    ]);
    // Not a thenable (awaiting the client must not call a method named `then`), and not changeable.
    expect((api as unknown as Record<string, unknown>).then).toBeUndefined();
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends {} for a missing input', async () => {
    const sent: unknown[] = [];
    const api = createClient({ call: async (_m, input) => (sent.push(input), { ok: true, value: null }) });
    await (api.status as (input?: unknown) => Promise<Result<unknown>>)();
    expect(sent).toEqual([{}]);
  });

  it("passes events through the transport's onEvent, and its unsubscribe back", () => {
    const listeners = new Set<(e: NexusEvent) => void>();
    const api = createClient({
      call: async () => ({ ok: true, value: null }),
      onEvent: (l) => (listeners.add(l), () => listeners.delete(l)),
    });
    const got: NexusEvent[] = [];
    const off = api.onEvent((e) => got.push(e));
    for (const l of listeners) l({ type: 'runs_changed' });
    off();
    expect(listeners.size).toBe(0);
    expect(got).toEqual([{ type: 'runs_changed' }]);
  });

  it('without transport events, onEvent never calls back and unsubscribes cleanly', () => {
    const api = createClient({ call: async () => ({ ok: true, value: null }) });
    const off = api.onEvent(() => {
      throw new Error('no events expected');
    });
    expect(typeof off).toBe('function');
    off();
  });
});
