// The browser host: the one-time launch address, the session secret in page memory, the Origin and Host checks,
// the one WebSocket carrying the API, events pushed. Real HTTP and real WebSockets on 127.0.0.1; the renderer's
// real web bridge is the client.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { get as httpGet } from 'node:http';
import WebSocket from 'ws';
import { startWebDoor, type WebDoor } from './web.js';
import type { ApiHost } from './host.js';
import type { Handlers } from '../api/dispatch.js';
import type { NexusEvent } from '../../shared/api/index.js';
import { createWebBridge, type SocketLike } from '../../renderer/src/api/web-bridge.js';
import { LAUNCH_TTL_MS } from './web-session.js';
import { MAX_MESSAGE_BYTES } from '../../shared/api/doors.js';
import { world, type World } from '../../test/support/world.js';

let w: World;
let dir: string;
let door: WebDoor;
let clock = 1_000_000;
const approvals: string[] = [];
const bus = new EventEmitter();
// A fake table: only the methods this test calls (the door carries whatever the table answers).
const fakeHandlers: Partial<Handlers> = {
  status: () => ({ version: 'test', data_dir: '/tmp/x', pending: 2, runs_in_flight: 0, stop_all: false }),
  inboxApprove: (input) => {
    approvals.push(input.id);
    return { id: input.id, state: input.trust_session ? 'trusted' : 'approved' };
  },
  inboxDeny: () => {
    throw new TypeError("Cannot read properties of null (reading 'id')");
  },
};
const host: ApiHost = {
  handlers: fakeHandlers as Handlers,
  onEvent(listener) {
    bus.on('event', listener);
    return () => bus.off('event', listener);
  },
};

beforeEach(async () => {
  approvals.length = 0;
  w = world();
  dir = w.dir('web');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>NEXUS</title>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  door = await startWebDoor({ nexus: host, port: 0, host: '127.0.0.1', staticDir: dir, now: () => clock });
  const opened = door;
  w.defer(() => opened.close());
});
afterEach(() => w.cleanup());

const launchOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

function handshake(headers: Record<string, string>, path = '/api'): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${door.port}${path}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

/** An open socket from our origin; `first` is sent first, and every message (and the close code) is collected. */
async function client(first?: unknown) {
  const ws = new WebSocket(`ws://127.0.0.1:${door.port}/api`, { headers: { origin: door.origin } });
  const got: Record<string, unknown>[] = [];
  let closeCode: number | null = null;
  ws.on('message', (d) => got.push(JSON.parse(d.toString())));
  const closed = new Promise<number>((r) => ws.on('close', (c) => r((closeCode = c))));
  await new Promise((r) => ws.once('open', r));
  if (first !== undefined) ws.send(typeof first === 'string' ? first : JSON.stringify(first));
  const next = async (n: number) => {
    for (let i = 0; i < 200 && got.length < n && closeCode === null; i++) await new Promise((r) => setTimeout(r, 5));
    return got[n - 1];
  };
  return { ws, got, next, closed, closeCode: () => closeCode };
}

describe('browser host (web door)', () => {
  it('listens on 127.0.0.1 only and prints an address carrying a one-time token in its fragment', async () => {
    expect(door.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    expect(launchOf(door.issueUrl())).not.toBe(launchOf(door.url));
    await expect(startWebDoor({ nexus: host, host: '0.0.0.0' as '127.0.0.1', staticDir: dir })).rejects.toThrow(/127\.0\.0\.1/);
  });

  it('serves the page and assets as public code, sets no cookie, never a file outside the renderer folder', async () => {
    const page = await fetch(`${door.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('NEXUS');
    expect((await fetch(`${door.origin}/assets/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${door.origin}/..%2f..%2f..%2fetc%2fpasswd`)).status).toBe(400);
    expect((await fetch(`${door.origin}/missing.js`)).status).toBe(404);
    const rebound = await new Promise<number>((resolve) =>
      httpGet({ host: '127.0.0.1', port: door.port, path: '/', headers: { host: `rebind.example:${door.port}` } }, (res) => resolve(res.statusCode ?? 0)),
    );
    expect(rebound).toBe(421);
  });

  it('the WebSocket requires our Origin: missing, another port, another name or another host are refused', async () => {
    const other = `http://127.0.0.1:${door.port === 65535 ? 1 : door.port + 1}`;
    expect(await handshake({ origin: door.origin })).toBe(101);
    expect(await handshake({})).toBe(403);
    expect(await handshake({ origin: other })).toBe(403);
    expect(await handshake({ origin: 'null' })).toBe(403);
    expect(await handshake({ origin: `http://localhost:${door.port}` })).toBe(403);
    expect(await handshake({ origin: 'http://evil.example' })).toBe(403);
    expect(await handshake({ origin: door.origin, host: `rebind.example:${door.port}` })).toBe(403);
    expect(await handshake({ origin: door.origin }, '/other')).toBe(404);
  });

  it('nothing is dispatched and no event is pushed before the socket authenticates', async () => {
    const c = await client({ id: 1, method: 'inboxApprove', input: { id: 'row_1' } });
    bus.emit('event', { type: 'inbox_changed', pending: 3 } satisfies NexusEvent);
    expect(await c.next(1)).toEqual({ auth: { ok: false, code: 'unauthenticated', message: expect.stringMatching(/no key.*nexus open/) } });
    expect(await c.closed).toBe(4401);
    expect(c.got).toHaveLength(1);
    expect(approvals).toEqual([]);
  });

  it('the launch token buys one session; its second use is refused; the session serves reconnects', async () => {
    const launch = launchOf(door.url);
    const a = await client({ auth: { launch } });
    const ok = (await a.next(1)) as { auth: { ok: boolean; session: string } };
    expect(ok.auth).toEqual({ ok: true, session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    a.ws.close();

    const again = await client({ auth: { launch } });
    expect(await again.next(1)).toEqual({ auth: { ok: false, code: 'launch_used', message: expect.stringMatching(/already used.*nexus open/) } });
    expect(await again.closed).toBe(4401);

    const back = await client({ auth: { session: ok.auth.session } });
    expect(await back.next(1)).toEqual({ auth: { ok: true } });
    back.ws.send(JSON.stringify({ id: 7, method: 'inboxApprove', input: { id: 'row_9' } }));
    expect(await back.next(2)).toEqual({ id: 7, result: { ok: true, value: { id: 'row_9', state: 'approved' } } });
    // The typed client has no way to name a method the API lacks; the wire does, and is answered by code.
    back.ws.send(JSON.stringify({ id: 8, method: 'noSuchMethod', input: {} }));
    expect(await back.next(3)).toMatchObject({ id: 8, result: { ok: false, error: { code: 'unknown_method' } } });
    back.ws.send(JSON.stringify({ id: 9, method: '__proto__', input: {} }));
    expect(await back.next(4)).toMatchObject({ id: 9, result: { ok: false, error: { code: 'unknown_method' } } });
    back.ws.close();

    for (const auth of [{ session: 'guessed' }, { session: ok.auth.session.slice(1) }, { launch: 'guessed' }, {}, { launch: 5 }]) {
      const bad = await client({ auth });
      expect(await bad.next(1)).toMatchObject({ auth: { ok: false } });
      expect(await bad.closed).toBe(4401);
    }
  });

  it('the launch token expires two minutes after it was printed (the clock is injected)', async () => {
    const late = door.issueUrl();
    const inTime = door.issueUrl();
    clock += LAUNCH_TTL_MS - 1;
    const a = await client({ auth: { launch: launchOf(inTime) } });
    expect(await a.next(1)).toMatchObject({ auth: { ok: true } });
    a.ws.close();
    clock += 1;
    const b = await client({ auth: { launch: launchOf(late) } });
    expect(await b.next(1)).toEqual({ auth: { ok: false, code: 'launch_expired', message: expect.stringMatching(/expired.*nexus open/) } });
    expect(await b.closed).toBe(4401);
  });

  it('a reloaded tab gets back in with a new address (what `nexus open` prints)', async () => {
    const first = createWebBridge({ url: `ws://127.0.0.1:${door.port}/api`, launch: launchOf(door.url), socket: nodeSocket() });
    expect(await first.status({})).toMatchObject({ ok: true });
    first.close();
    // The reload: the page's memory is gone and the fragment was wiped; the old address is spent.
    const reloaded = createWebBridge({ url: `ws://127.0.0.1:${door.port}/api`, launch: launchOf(door.url), socket: nodeSocket() });
    expect(await reloaded.status({})).toMatchObject({ ok: false, error: { code: 'unauthenticated', message: expect.stringMatching(/already used/) } });
    expect(reloaded.connectionState()).toBe('locked');
    reloaded.close();
    const fresh = createWebBridge({ url: `ws://127.0.0.1:${door.port}/api`, launch: launchOf(door.issueUrl()), socket: nodeSocket() });
    expect(await fresh.status({})).toMatchObject({ ok: true, value: { pending: 2 } });
    fresh.close();
  });

  it('takes a message as large as the socket door does and closes on a larger one (one bound for every door)', async () => {
    const launch = launchOf(door.url);
    const c = await client({ auth: { launch } });
    expect(await c.next(1)).toMatchObject({ auth: { ok: true } });
    // Past the old 1 MiB frame bound, within the shared one: carried to dispatch, which judges the input.
    c.ws.send(JSON.stringify({ id: 1, method: 'inboxApprove', input: { id: 'r'.repeat(MAX_MESSAGE_BYTES - 1024) } }));
    expect(await c.next(2)).toMatchObject({ id: 1, result: { ok: false, error: { code: 'invalid_input' } } });
    c.ws.send(JSON.stringify({ id: 2, method: 'inboxApprove', input: { id: 'r'.repeat(MAX_MESSAGE_BYTES) } }));
    expect(await c.closed).toBe(1009);
  });

  it('carries the API through the web bridge: values, validation errors, pushed events', async () => {
    const bridge = createWebBridge({ url: `ws://127.0.0.1:${door.port}/api`, launch: launchOf(door.url), socket: nodeSocket() });
    try {
      const status = await bridge.status({});
      expect(status).toEqual({ ok: true, value: expect.objectContaining({ pending: 2 }) });
      expect(await bridge.inboxApprove({ id: 'r1', trust_session: true })).toEqual({ ok: true, value: { id: 'r1', state: 'trusted' } });
      const bad = await bridge.inboxApprove({ id: '' } as never);
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.error.code).toBe('invalid_input');

      const got: NexusEvent[] = [];
      const seen = new Promise<void>((resolve) =>
        bridge.onEvent((e) => {
          got.push(e);
          resolve();
        }),
      );
      bus.emit('event', { type: 'inbox_changed', pending: 3 } satisfies NexusEvent);
      await seen;
      expect(got).toEqual([{ type: 'inbox_changed', pending: 3 }]);
    } finally {
      bridge.close();
    }
  });

  it('malformed frames and a throwing handler answer an error; the socket and the door live on', async () => {
    const c = await client({ auth: { launch: launchOf(door.url) } });
    await c.next(1);
    const frames = [
      'not json',
      'null',
      '[]',
      '42',
      '"x"',
      'true',
      '{"id":{},"method":7}',
      '{"id":[1],"method":null,"input":null}',
      '{"method":"__proto__"}',
      '{"id":3,"method":"inboxDeny","input":{"id":"r"}}',
    ];
    for (const f of frames) c.ws.send(f);
    c.ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
    await c.next(frames.length + 1);
    const answers = c.got.slice(1) as { id: unknown; result: { ok: boolean; error: { code: string } } }[];
    expect(answers).toHaveLength(frames.length + 1);
    expect(answers.every((a) => a.result.ok === false)).toBe(true);
    expect(answers.find((a) => a.id === 3)?.result.error).toMatchObject({ code: 'internal' });
    c.ws.send(JSON.stringify({ id: 99, method: 'status', input: {} }));
    expect(await c.next(frames.length + 3)).toMatchObject({ id: 99, result: { ok: true } });
    expect(c.closeCode()).toBeNull();
    c.ws.close();
  });
});

const nodeSocket = () => (url: string) => new WebSocket(url, { headers: { origin: door.origin } }) as unknown as SocketLike;
