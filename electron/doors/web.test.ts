// The browser host: token, Origin and Host checks, the one WebSocket carrying the API, events pushed.
// Real HTTP and real WebSockets on 127.0.0.1; the renderer's real web bridge is the client.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { startWebDoor, type WebDoor } from './web.js';
import type { ApiHost } from './host.js';
import type { NexusEvent } from '../../shared/api/index.js';
import { createWebBridge, type SocketLike } from '../../renderer/src/api/web-bridge.js';

let dir: string;
let door: WebDoor;
const bus = new EventEmitter();
const host: ApiHost = {
  handlers: {
    status: () => ({ version: 'test', data_dir: '/tmp/x', pending: 2, runs_in_flight: 0, stop_all: false }),
    inboxApprove: (input) => ({ id: input.id, state: input.trust_session ? 'trusted' : 'approved' }),
  },
  onEvent(listener) {
    bus.on('event', listener);
    return () => bus.off('event', listener);
  },
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nexus-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>NEXUS</title>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  door = await startWebDoor({ nexus: host, port: 0, host: '127.0.0.1', staticDir: dir });
});
afterEach(async () => {
  await door.close();
  rmSync(dir, { recursive: true, force: true });
});

const nodeSocket = (headers: Record<string, string>) => (url: string) =>
  new WebSocket(url, { headers }) as unknown as SocketLike;

function handshake(path: string, headers: Record<string, string>): Promise<number> {
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

describe('browser host (web door)', () => {
  it('listens on 127.0.0.1 only and prints a URL carrying a random per-launch token', async () => {
    expect(door.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/);
    const other = await startWebDoor({ nexus: host, port: 0, staticDir: dir });
    expect(other.token).not.toBe(door.token);
    await other.close();
    await expect(startWebDoor({ nexus: host, host: '0.0.0.0' as '127.0.0.1', staticDir: dir })).rejects.toThrow(/127\.0\.0\.1/);
  });

  it('swaps the token for an HttpOnly cookie, and refuses the page without it', async () => {
    const first = await fetch(door.url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const withCookie = await fetch(`${door.origin}/`, { headers: { cookie: cookie.split(';')[0] } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await withCookie.text()).toContain('NEXUS');
    expect((await fetch(`${door.origin}/`)).status).toBe(401);
    expect((await fetch(`${door.origin}/?token=wrong`, { redirect: 'manual' })).status).toBe(403);
  });

  it('serves built assets and never a file outside the renderer folder', async () => {
    expect((await fetch(`${door.origin}/assets/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${door.origin}/..%2f..%2f..%2fetc%2fpasswd`)).status).toBe(400);
    expect((await fetch(`${door.origin}/missing.js`)).status).toBe(404);
  });

  it('refuses a WebSocket from another origin, without the token, or for another host', async () => {
    const origin = door.origin;
    const cookie = `nexus_token=${door.token}`;
    expect(await handshake('/api', { origin, cookie })).toBe(101);
    expect(await handshake('/api', { origin: 'http://evil.example', cookie })).toBe(403);
    expect(await handshake('/api', { origin: 'http://localhost:' + door.port, cookie })).toBe(403);
    expect(await handshake('/api', { origin })).toBe(401);
    expect(await handshake('/api', { origin, cookie: 'nexus_token=nope' })).toBe(401);
    expect(await handshake('/api', { origin, cookie, host: `rebind.example:${door.port}` })).toBe(403);
  });

  it('carries the API through the web bridge: values, validation errors, unknown methods, pushed events', async () => {
    const bridge = createWebBridge({
      url: `ws://127.0.0.1:${door.port}/api`,
      socket: nodeSocket({ origin: door.origin, cookie: `nexus_token=${door.token}` }),
    });
    try {
      const status = await bridge.status({});
      expect(status).toEqual({ ok: true, value: expect.objectContaining({ pending: 2 }) });
      expect(await bridge.inboxApprove({ id: 'r1', trust_session: true })).toEqual({ ok: true, value: { id: 'r1', state: 'trusted' } });
      const bad = await bridge.inboxApprove({ id: '' } as never);
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.error.code).toBe('invalid_input');
      const missing = await bridge.runsList({});
      expect(missing.ok ? null : missing.error.code).toBe('not_implemented');

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

  it('answers a malformed frame with invalid_input rather than dropping the socket', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${door.port}/api`, { headers: { origin: door.origin, cookie: `nexus_token=${door.token}` } });
    await new Promise((r) => ws.once('open', r));
    const reply = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    ws.send('not json');
    expect(JSON.parse(await reply)).toEqual({ id: null, result: { ok: false, error: expect.objectContaining({ code: 'invalid_input' }) } });
    ws.close();
  });
});
