// The web bridge's own logic with an in-memory socket: calls queue until the socket opens and authenticates,
// answers match their calls, a drop answers what was in flight with `disconnected` and reconnects with the
// session secret (never the spent launch token), a refused key locks the bridge, events reach listeners.
import { describe, it, expect } from 'vitest';
import { createWebBridge, NO_KEY_MESSAGE, resolveApi, type SocketLike } from './web-bridge.js';
import type { NexusApi } from '../../../shared/api/index.js';
import { METHOD_NAMES } from '../../../shared/api/method-names.js';
import { MAX_MESSAGE_BYTES } from '../../../shared/api/doors.js';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  /** The auth frames, kept apart from the API frames. */
  auths: unknown[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  send(data: string) {
    const msg = JSON.parse(data);
    if (msg.auth) this.auths.push(msg.auth);
    else this.sent.push(data);
  }
  close() {
    this.drop();
  }
  /** The socket opens and the host accepts the key the bridge presented (a launch token buys session S1). */
  open(answer: unknown = { ok: true, session: 'S1' }) {
    this.readyState = 1;
    this.onopen?.({});
    this.onmessage?.({ data: JSON.stringify({ auth: answer }) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  reply(id: number, value: unknown) {
    this.onmessage?.({ data: JSON.stringify({ id, result: { ok: true, value } }) });
  }
}

describe('web bridge', () => {
  it('exposes one function per API method plus onEvent, and queues calls until the socket opens', async () => {
    const sockets: FakeSocket[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', launch: 'L1', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!), retryMs: 1 });
    expect(typeof bridge.inboxApprove).toBe('function');
    expect(typeof bridge.chainsList).toBe('function');
    // Exactly the API's methods (a plain object, not a catch-all): a name the API lacks is no function, and the
    // bridge is no thenable (awaiting it never sends a `then` call).
    for (const name of METHOD_NAMES) expect(typeof bridge[name]).toBe('function');
    expect((bridge as unknown as Record<string, unknown>).agentsSaveTypo).toBeUndefined();
    expect((bridge as unknown as Record<string, unknown>).then).toBeUndefined();
    expect(Object.keys(bridge).sort()).toEqual([...METHOD_NAMES, 'onEvent', 'onConnection', 'connectionState', 'lockReason', 'close'].sort());
    const pending = bridge.status({});
    expect(sockets[0].sent).toEqual([]);
    sockets[0].open();
    const frame = JSON.parse(sockets[0].sent[0]);
    expect(frame).toMatchObject({ method: 'status', input: {} });
    sockets[0].reply(frame.id, { pending: 4 });
    expect(await pending).toEqual({ ok: true, value: { pending: 4 } });

    const events: unknown[] = [];
    const off = bridge.onEvent((e) => events.push(e));
    sockets[0].onmessage?.({ data: JSON.stringify({ event: { type: 'chains_changed' } }) });
    off();
    sockets[0].onmessage?.({ data: JSON.stringify({ event: { type: 'runs_changed' } }) });
    expect(events).toEqual([{ type: 'chains_changed' }]);
    bridge.close();
  });

  it('answers calls in flight with `disconnected` when the socket drops, then reconnects', async () => {
    const sockets: FakeSocket[] = [];
    const states: string[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', launch: 'L1', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!), retryMs: 1 });
    bridge.onConnection((s) => states.push(s));
    sockets[0].open();
    const inFlight = bridge.inboxList({});
    sockets[0].drop();
    const r = await inFlight;
    expect(r.ok ? null : r.error.code).toBe('disconnected');
    await new Promise((res) => setTimeout(res, 10));
    expect(sockets.length).toBe(2);
    sockets[1].open();
    expect(states).toEqual(['open', 'closed', 'connecting', 'open']);
    bridge.close();
  });

  it('a call made while NEXUS is unreachable is answered "not sent" and is never sent later', async () => {
    const sockets: FakeSocket[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', launch: 'L1', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!), retryMs: 1 });
    sockets[0].open();
    sockets[0].drop(); // the server went away
    await new Promise((res) => setTimeout(res, 10));
    const approve = bridge.inboxApprove({ id: 'row_1' }); // clicked while reconnecting: queued
    sockets[1].drop(); // the reconnect attempt fails
    const r = await approve;
    expect(r.ok ? null : r.error).toEqual({ code: 'disconnected', message: expect.stringMatching(/^Not sent: .*nothing was done/) });
    await new Promise((res) => setTimeout(res, 10));
    sockets[2].open(); // the server is back: the refused approval must not go through now
    expect(sockets[2].sent).toEqual([]);
    // A call queued while connecting is sent when that attempt succeeds.
    await new Promise((res) => setTimeout(res, 10));
    sockets[2].drop();
    await new Promise((res) => setTimeout(res, 10));
    const later = bridge.status({});
    sockets[3].open();
    expect(JSON.parse(sockets[3].sent[0])).toMatchObject({ method: 'status' });
    sockets[3].reply(JSON.parse(sockets[3].sent[0]).id, { pending: 0 });
    expect(await later).toEqual({ ok: true, value: { pending: 0 } });
    bridge.close();
  });

  it('refuses a message over the doors’ bound itself instead of letting the host drop the connection', async () => {
    const sockets: FakeSocket[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', launch: 'L1', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!), retryMs: 1 });
    sockets[0].open();
    const r = await bridge.rulesCheck({ rules: [{ tool: 'x'.repeat(MAX_MESSAGE_BYTES), verdict: 'allow' }] });
    expect(r.ok ? null : r.error).toEqual({ code: 'too_large', message: expect.stringMatching(/^Too large to send: \d+ bytes; .*Nothing was sent\.$/) });
    expect(sockets[0].sent).toEqual([]);
    bridge.close();
  });

  it('prefers the preload API when the page runs in Electron', () => {
    const nexus = { status: async () => ({ ok: true, value: {} }) } as unknown as NexusApi;
    expect(resolveApi({ nexus, location: { protocol: 'file:', host: '', hash: '', pathname: '/', search: '' } })).toBe(nexus);
  });

  it('spends the launch token once, then reconnects with the session secret it bought', async () => {
    const sockets: FakeSocket[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', launch: 'L1', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!), retryMs: 1 });
    const early = bridge.status({});
    sockets[0].readyState = 1;
    sockets[0].onopen?.({});
    expect(sockets[0].auths).toEqual([{ launch: 'L1' }]);
    expect(sockets[0].sent).toEqual([]); // nothing but the key before the host accepts it
    expect(bridge.connectionState()).toBe('connecting');
    sockets[0].onmessage?.({ data: JSON.stringify({ auth: { ok: true, session: 'S1' } }) });
    expect(bridge.connectionState()).toBe('open');
    sockets[0].reply(JSON.parse(sockets[0].sent[0]).id, { pending: 1 });
    expect(await early).toEqual({ ok: true, value: { pending: 1 } });
    sockets[0].drop();
    await new Promise((res) => setTimeout(res, 10));
    sockets[1].open({ ok: true });
    expect(sockets[1].auths).toEqual([{ session: 'S1' }]);
    bridge.close();
  });

  it("locks when the host refuses the key: says the host's sentence, answers every call, does not retry", async () => {
    const sockets: FakeSocket[] = [];
    const states: string[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', launch: 'L1', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!), retryMs: 1 });
    bridge.onConnection((s) => states.push(s));
    const queued = bridge.inboxList({});
    sockets[0].open({ ok: false, code: 'launch_used', message: 'This address was already used.' });
    expect(await queued).toEqual({ ok: false, error: { code: 'unauthenticated', message: 'This address was already used.' } });
    expect(bridge.connectionState()).toBe('locked');
    expect(bridge.lockReason()).toBe('This address was already used.');
    expect(await bridge.status({})).toMatchObject({ ok: false, error: { code: 'unauthenticated' } });
    await new Promise((res) => setTimeout(res, 20));
    expect(sockets.length).toBe(1);
    expect(sockets[0].sent).toEqual([]);
    expect(states).toEqual(['locked']);
    bridge.close();
  });

  it('a page without a key (a reload) opens no socket and says how to get a new address', async () => {
    const sockets: FakeSocket[] = [];
    const bridge = createWebBridge({ url: 'ws://x/api', socket: () => (sockets.push(new FakeSocket()), sockets.at(-1)!) });
    expect(sockets.length).toBe(0);
    expect(bridge.connectionState()).toBe('locked');
    expect(bridge.lockReason()).toBe(NO_KEY_MESSAGE);
    expect(NO_KEY_MESSAGE).toMatch(/nexus open/);
    expect(await bridge.status({})).toEqual({ ok: false, error: { code: 'unauthenticated', message: NO_KEY_MESSAGE } });
    bridge.close();
  });

  it('takes the launch token from the fragment and wipes it from the address bar before anything reads it', () => {
    const replaced: (string | undefined)[] = [];
    let reloads = 0;
    let onHash = () => {};
    const win = {
      location: { protocol: 'http:', host: '127.0.0.1:1', hash: '#token=abc_DEF-123', pathname: '/', search: '', reload: () => void reloads++ },
      history: { replaceState: (_d: unknown, _u: string, url?: string) => void replaced.push(url) },
      addEventListener: (_t: 'hashchange', l: () => void) => void (onHash = l),
    };
    const sent: unknown[] = [];
    const orig = globalThis.WebSocket;
    class Capture extends FakeSocket {
      constructor() {
        super();
        queueMicrotask(() => this.open());
      }
      override send(data: string) {
        sent.push(JSON.parse(data));
      }
    }
    (globalThis as { WebSocket?: unknown }).WebSocket = Capture;
    try {
      const api = resolveApi(win);
      expect(replaced).toEqual(['/']);
      // A route change is a route change; a new address pasted into the tab reloads it to take its token.
      win.location.hash = '#/runs';
      onHash();
      expect(reloads).toBe(0);
      win.location.hash = '#token=new';
      onHash();
      expect(reloads).toBe(1);
      return new Promise<void>((done) =>
        queueMicrotask(() => {
          expect(sent[0]).toEqual({ auth: { launch: 'abc_DEF-123' } });
          api.close?.();
          done();
        }),
      );
    } finally {
      (globalThis as { WebSocket?: unknown }).WebSocket = orig;
    }
  });
});
