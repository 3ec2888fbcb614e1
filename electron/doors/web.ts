// The browser host (DESIGN §1): serves the built renderer on http://127.0.0.1:PORT/ and carries the one API
// over ONE WebSocket. Who may call: a page that holds this launch's random token (exchanged for an HttpOnly
// cookie on first load) AND comes from our own origin (Origin + Host checked, which also defeats DNS
// rebinding). Every call goes through dispatch(), which validates input with the method's zod schema.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatch } from '../api/dispatch.js';
import type { ApiHost } from './host.js';

export type { ApiHost } from './host.js';

export interface WebDoorOptions {
  nexus: ApiHost;
  port?: number;
  /** Only loopback is allowed; the option exists so callers state it. */
  host?: '127.0.0.1';
  /** The built renderer (vite build). Default: dist/renderer of the package this file belongs to. */
  staticDir?: string;
  /** Fixed token (tests); default 32 random bytes per launch. */
  token?: string;
}

export interface WebDoor {
  /** The URL to open: carries the token once; the page swaps it for a cookie. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const COOKIE = 'nexus_token';
/** One API message is small; the rule envelope is 64 KiB, so 1 MiB leaves room and bounds abuse. */
const MAX_MESSAGE = 1 << 20;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

function defaultStaticDir(): string {
  // Works from source (electron/doors/), bundled (dist/cli/) and packaged (app.asar/dist/cli/, where only the
  // built window is shipped): walk up to the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const built = existsSync(join(dir, 'renderer')) || existsSync(join(dir, 'dist', 'renderer', 'index.html'));
    if (existsSync(join(dir, 'package.json')) && built) return join(dir, 'dist', 'renderer');
    dir = dirname(dir);
  }
  return join(process.cwd(), 'dist', 'renderer');
}

const sameSecret = (a: string | undefined, b: string): boolean => {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

export function contentSecurityPolicy(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${ws}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export async function startWebDoor(opts: WebDoorOptions): Promise<WebDoor> {
  if (opts.host && opts.host !== '127.0.0.1') throw new Error('The browser host listens on 127.0.0.1 only.');
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const staticDir = opts.staticDir ?? defaultStaticDir();
  let origin = '';
  let hostHeader = '';

  const authorized = (req: IncomingMessage, url: URL): boolean =>
    sameSecret(cookieToken(req), token) || sameSecret(url.searchParams.get('token') ?? undefined, token);
  const rightHost = (req: IncomingMessage) => req.headers.host === hostHeader;
  // Browsers always send Origin on a WebSocket handshake; a missing one means a non-browser client, which
  // still needs the token. A present Origin must be ours.
  const rightOrigin = (req: IncomingMessage) => req.headers.origin === undefined || req.headers.origin === origin;

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
    // First load: swap the URL's token for an HttpOnly cookie, and drop it from the address bar.
    if (url.searchParams.has('token')) {
      if (!sameSecret(url.searchParams.get('token') ?? undefined, token)) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Wrong token.\n');
      res.setHeader('Set-Cookie', `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`);
      return void res.writeHead(303, { location: '/' }).end();
    }
    if (url.pathname === '/api') return void res.writeHead(426, { 'content-type': 'text/plain' }).end('Use a WebSocket.\n');
    serveStatic(staticDir, url.pathname, res, authorized(req, url));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const refuse = (status: number, why: string) => {
      socket.end(`HTTP/1.1 ${status} ${why}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== '/api') return refuse(404, 'Not Found');
    if (!rightHost(req) || !rightOrigin(req)) return refuse(403, 'Forbidden');
    if (!authorized(req, url)) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const unsubscribe = opts.nexus.onEvent((event) => {
    const frame = JSON.stringify({ event });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => sockets.delete(ws));
    ws.on('message', async (data, isBinary) => {
      let msg: { id?: unknown; method?: unknown; input?: unknown };
      try {
        if (isBinary) throw new Error('binary');
        msg = JSON.parse(data.toString());
      } catch {
        return ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'invalid_input', message: 'A message is one JSON object.' } } }));
      }
      const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null;
      const result =
        typeof msg.method === 'string'
          ? await dispatch(opts.nexus.handlers, msg.method, msg.input, { door: 'web' })
          : { ok: false, error: { code: 'invalid_input', message: 'method must be a string.' } };
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
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

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serveStatic(root: string, pathname: string, res: ServerResponse, authorized: boolean) {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return void res.writeHead(400).end();
  }
  // Refuse any walk upwards outright (before normalize() would quietly clamp it at the root).
  if (decoded.split(/[/\\]/).includes('..') || decoded.includes('\0')) return void res.writeHead(400).end();
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  let file = join(root, rel || 'index.html');
  if (!file.startsWith(root + sep) && file !== root) return void res.writeHead(400).end();
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  // The page needs the cookie; assets (hashed, public code) do not, so a stale tab still shows an error page.
  if (!isFile(file)) {
    if (extname(rel)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
    file = join(root, 'index.html');
  }
  if (!isFile(file)) {
    return void res
      .writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
      .end('The window is not built yet: run `npm run build` (vite build writes dist/renderer).\n');
  }
  if (file.endsWith('index.html') && !authorized) {
    return void res
      .writeHead(401, { 'content-type': 'text/plain; charset=utf-8' })
      .end('Open the address `nexus serve` printed (it carries this launch\'s token).\n');
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
  res.writeHead(200, { 'content-type': type, 'cache-control': cache });
  res.end(readFileSync(file));
}
