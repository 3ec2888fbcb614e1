// What the browser host serves over plain HTTP: the built renderer's files (never a path above its folder), and
// the Content-Security-Policy every page carries (our own scripts, styles and one WebSocket; nothing else).
import type { ServerResponse } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The built renderer beside this package. */
export function defaultStaticDir(): string {
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

export function serveStatic(root: string, pathname: string, res: ServerResponse) {
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
  if (!isFile(file)) {
    if (extname(rel)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
    file = join(root, 'index.html');
  }
  if (!isFile(file)) {
    return void res
      .writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
      .end('The window is not built yet: run `npm run build` (vite build writes dist/renderer).\n');
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
  res.writeHead(200, { 'content-type': type, 'cache-control': cache });
  res.end(readFileSync(file));
}
