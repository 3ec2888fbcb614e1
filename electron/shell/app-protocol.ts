// The window is served from nexus://app/…, a privileged custom scheme (standard, secure), not file://: the
// page gets a real origin, file:// keeps no special powers (the GrantFileProtocolExtraPrivileges fuse is off),
// and only files of the built window (dist/renderer) can ever be answered. Electron-free: main.ts registers
// the scheme and hands each request's URL to resolveAppAsset.
import { extname, isAbsolute, join, relative, sep } from 'node:path';

export const APP_SCHEME = 'nexus';
export const APP_HOST = 'app';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Privileges of the scheme (protocol.registerSchemesAsPrivileged), before the app is ready. */
// corsEnabled: Vite marks the window's module scripts crossorigin; they are same-origin, but module loads from a
// custom scheme have needed it in Electron before.
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: false } as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file (and its type) a nexus:// request names, or null for anything outside the window's files. */
export function resolveAppAsset(rendererDir: string, requestUrl: string): { file: string; type: string } | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password || url.port) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path === '/' || path === '') path = '/index.html';
  // No NUL, no backslashes (a second separator on Windows), no hidden files, no `..` segments.
  if (/[\0\\]/.test(path) || path.split('/').some((seg) => seg === '..' || seg.startsWith('.'))) return null;
  const file = join(rendererDir, ...path.split('/').filter(Boolean));
  const rel = relative(rendererDir, file);
  if (!rel || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
  const type = TYPES[extname(file).toLowerCase()];
  if (!type) return null;
  return { file, type };
}

/** True for a navigation target inside the window (any view of index.html). */
export function isAppPage(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && (u.pathname === '/index.html' || u.pathname === '/');
  } catch {
    return false;
  }
}
