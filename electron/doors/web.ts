// The browser host (DESIGN §1): serves the built renderer on http://127.0.0.1:PORT/ and carries the one API
// over ONE WebSocket. Who may call: the person who holds this launch's address, and only from our own page.
//
// - The printed address is `http://127.0.0.1:PORT/#token=T`. T is a launch token: one exchange, within two
//   minutes (web-session.ts). The fragment never leaves the browser in a request, so no log or proxy sees it.
// - The page opens `ws://127.0.0.1:PORT/api`. The handshake REQUIRES `Origin: http://127.0.0.1:PORT` (a
//   missing Origin is refused: browsers always send one, so only non-browser clients lack it) and
//   `Host: 127.0.0.1:PORT` (DNS rebinding). Nothing secret is in a cookie: cookies ignore ports, so every
//   other local server would receive it.
// - The FIRST message must be `{ "auth": { "launch": T } }` (answered `{ "auth": { "ok": true, "session": S } }`)
//   or `{ "auth": { "session": S } }` on a reconnect (answered `{ "auth": { "ok": true } }`). S stays in page
//   memory. A wrong, spent or expired key is answered `{ "auth": { "ok": false, code, message } }` and the socket
//   closed (4401). No message is dispatched and no event pushed before that.
// - Then `{ "id", "method", "input" }` → `{ "id", "result": Result }`, and `{ "event": NexusEvent }` pushed.
//   Every call goes through dispatch(), which validates input with the method's zod schema. Each message is
//   handled under a guard: a malformed frame or a throwing handler answers an error; the socket lives on.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatch } from '../api/dispatch.js';
import type { ApiHost } from './host.js';
import { guarded } from './guard.js';
import { contentSecurityPolicy, defaultStaticDir, serveStatic } from './web-static.js';
import { AUTH_MESSAGES, createSessionKeeper } from './web-session.js';
import { MAX_MESSAGE_BYTES } from '../../shared/api/doors.js';
import { errorMessage } from '../../shared/errors.js';

export type { ApiHost } from './host.js';

export interface WebDoorOptions {
  nexus: ApiHost;
  port?: number;
  /** Only loopback is allowed; the option exists so callers state it. */
  host?: '127.0.0.1';
  /** The built renderer (vite build). Default: dist/renderer of the package this file belongs to. */
  staticDir?: string;
  /** The clock the launch tokens expire by (tests). */
  now?: () => number;
  /** How long a launch address stays good, ms (default two minutes). */
  launchTtlMs?: number;
}

export interface WebDoor {
  /** The first address to open: carries a one-time launch token in its fragment. */
  url: string;
  origin: string;
  port: number;
  /** A new one-time address (`nexus open`, a reloaded tab). */
  issueUrl(): string;
  close(): Promise<void>;
}

/** The auth message is a few hundred bytes; a stranger gets no room before it. */
const MAX_AUTH_MESSAGE = 4096;
/** A socket that has not authenticated by then is closed. */
const AUTH_DEADLINE_MS = 10_000;
export async function startWebDoor(opts: WebDoorOptions): Promise<WebDoor> {
  if (opts.host && opts.host !== '127.0.0.1') throw new Error('The browser host listens on 127.0.0.1 only.');
  const keys = createSessionKeeper({ now: opts.now, ttlMs: opts.launchTtlMs });
  const staticDir = opts.staticDir ?? defaultStaticDir();
  let origin = '';
  let hostHeader = '';

  const rightHost = (req: IncomingMessage) => req.headers.host === hostHeader;
  const rightOrigin = (req: IncomingMessage) => req.headers.origin === origin;

  const securityHeaders = (res: ServerResponse) => {
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(origin));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  };

  const server: Server = createServer((req, res) => {
    securityHeaders(res);
    const url = new URL(req.url ?? '/', origin || 'http://127.0.0.1');
    if (!rightHost(req)) return void res.writeHead(421, { 'content-type': 'text/plain' }).end('Wrong host.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (url.pathname === '/api') return void res.writeHead(426, { 'content-type': 'text/plain' }).end('Use a WebSocket.\n');
    // The page and its assets are public code; the key that opens the API is in the fragment, which the page reads.
    serveStatic(staticDir, url.pathname, res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const refuse = (status: number, why: string) => {
      socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== '/api') return refuse(404, 'Not Found');
    if (!rightHost(req) || !rightOrigin(req)) return refuse(403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const unsubscribe = opts.nexus.onEvent((event) => {
    const frame = JSON.stringify({ event });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
  });

  wss.on('connection', (ws: WebSocket) => {
    let authenticated = false;
    const deadline = setTimeout(() => ws.close(4408, 'authentication timeout'), AUTH_DEADLINE_MS);
    const reply = (msg: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };
    const refuse = (code: string, message: string) => {
      reply({ auth: { ok: false, code, message } });
      ws.close(4401, code);
    };
    const authenticate = (data: Buffer, isBinary: boolean) => {
      type AuthMessage = { launch?: unknown; session?: unknown };
      let auth: AuthMessage | null = null;
      try {
        const msg = !isBinary && data.length <= MAX_AUTH_MESSAGE ? (JSON.parse(data.toString()) as unknown) : null;
        const a = msg && typeof msg === 'object' ? (msg as { auth?: unknown }).auth : null;
        auth = a && typeof a === 'object' ? (a as AuthMessage) : null;
      } catch {
        auth = null;
      }
      if (auth?.launch !== undefined) {
        const ex = keys.exchange(auth.launch);
        if (!ex.ok) return refuse(ex.code, ex.message);
        reply({ auth: { ok: true, session: ex.session } });
      } else if (auth?.session !== undefined) {
        if (!keys.validSession(auth.session)) return refuse('unauthenticated', AUTH_MESSAGES.unknown_session);
        reply({ auth: { ok: true } });
      } else return refuse('unauthenticated', AUTH_MESSAGES.no_key);
      clearTimeout(deadline);
      authenticated = true;
      sockets.add(ws);
    };
    const handle = async (data: Buffer, isBinary: boolean) => {
      let msg: unknown;
      try {
        if (isBinary) throw new Error('binary');
        msg = JSON.parse(data.toString());
      } catch {
        return reply({ id: null, result: { ok: false, error: { code: 'invalid_input', message: 'A message is one JSON object.' } } });
      }
      const m = msg && typeof msg === 'object' && !Array.isArray(msg) ? (msg as { id?: unknown; method?: unknown; input?: unknown }) : null;
      const id = m && (typeof m.id === 'number' || typeof m.id === 'string') ? m.id : null;
      const result =
        m && typeof m.method === 'string'
          ? await dispatch(opts.nexus.handlers, m.method, m.input, { door: 'web' })
          : { ok: false, error: { code: 'invalid_input', message: 'A message is { "id", "method", "input" } with a string method.' } };
      reply({ id, result });
    };
    ws.on('close', () => {
      clearTimeout(deadline);
      sockets.delete(ws);
    });
    ws.on('error', () => sockets.delete(ws));
    ws.on('message', (data: Buffer, isBinary) => {
      if (!authenticated)
        return guarded(
          () => authenticate(data, isBinary),
          () => ws.close(4401, 'unauthenticated'),
        );
      guarded(
        () => handle(data, isBinary),
        (e) => reply({ id: null, result: { ok: false, error: { code: 'internal', message: `The message failed inside NEXUS: ${errorMessage(e)}` } } }),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  hostHeader = `127.0.0.1:${port}`;
  const issueUrl = () => `${origin}/#token=${keys.issue()}`;

  return {
    url: issueUrl(),
    origin,
    port,
    issueUrl,
    async close() {
      unsubscribe();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
