// The control socket (DESIGN §1): a Unix-domain socket `nexus.sock` (mode 0600) in the data dir, for the CLI.
// Protocol: newline-delimited JSON. A request `{ "id", "method", "input" }` gets `{ "id", "ok": true, "value" }`
// or `{ "id", "ok": false, "error": { code, message } }`; every call goes through dispatch() (zod-validated).
// `{ "id", "method": "subscribe" }` answers `{ id, ok: true, value: { subscribed: true } }`, then streams every
// kernel event as `{ "event": NexusEvent }` on that connection (the CLI's `--wait`).
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { dispatch } from '../api/dispatch.js';
import { socketPath } from './socket-path.js';
import type { ApiHost } from './host.js';

export { SOCKET_FILE, socketPath } from './socket-path.js';
/** A request line is small; the rule envelope is 64 KiB. Anything larger is refused and the connection closed. */
export const MAX_LINE = 4 << 20;

// sun_path is 104 bytes on macOS, 108 on Linux (NUL included).
const MAX_SOCKET_PATH = 103;

export interface SocketDoor {
  path: string;
  close(): Promise<void>;
}

/** True when something answers on the socket (a live kernel); false for a stale file or none. */
export function socketAlive(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(path);
    const done = (v: boolean) => {
      clearTimeout(t);
      c.destroy();
      resolve(v);
    };
    const t = setTimeout(() => done(false), timeoutMs);
    c.once('connect', () => done(true));
    c.once('error', () => done(false));
  });
}

export async function startSocketDoor(nexus: ApiHost & { dataDir: string }): Promise<SocketDoor> {
  const path = socketPath(nexus.dataDir);
  const isPipe = process.platform === 'win32';
  if (!isPipe && Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(`The control socket path ${path} is too long for a Unix socket (at most ${MAX_SOCKET_PATH} bytes); use a shorter --data-dir.`);
  }
  if (!isPipe && existsSync(path)) {
    if (await socketAlive(path)) throw new Error(`Another NEXUS kernel is answering on ${path}.`);
    unlinkSync(path); // stale: left by a kernel that died
  }
  const connections = new Set<Socket>();
  const server: Server = createServer((conn) => {
    connections.add(conn);
    let buffer = '';
    let unsubscribe: (() => void) | null = null;
    const send = (msg: unknown) => {
      if (!conn.destroyed) conn.write(`${JSON.stringify(msg)}\n`);
    };
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE && !buffer.includes('\n')) {
        send({ id: null, ok: false, error: { code: 'too_large', message: `A request line may be at most ${MAX_LINE} bytes.` } });
        conn.destroy();
        return;
      }
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) void handle(line);
      }
    });
    const handle = async (line: string) => {
      let req: { id?: unknown; method?: unknown; input?: unknown };
      try {
        req = JSON.parse(line);
      } catch {
        return send({ id: null, ok: false, error: { code: 'invalid_json', message: 'A request is one JSON object per line.' } });
      }
      const id = req && typeof req === 'object' ? (req.id ?? null) : null;
      if (!req || typeof req !== 'object' || typeof req.method !== 'string') {
        return send({ id, ok: false, error: { code: 'invalid_request', message: 'A request is { "id", "method", "input" }.' } });
      }
      if (req.method === 'subscribe') {
        if (!unsubscribe) unsubscribe = nexus.onEvent((event) => send({ event }));
        return send({ id, ok: true, value: { subscribed: true } });
      }
      const result = await dispatch(nexus.handlers, req.method, req.input, { door: 'socket' });
      send({ id, ...result });
    };
    conn.on('close', () => {
      unsubscribe?.();
      connections.delete(conn);
    });
    conn.on('error', () => conn.destroy());
  });

  // Created 0600 from the start (umask), not chmod'ed after someone could have connected.
  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(oldMask);
  }
  if (!isPipe) chmodSync(path, 0o600);

  let closed: Promise<void> | null = null;
  return {
    path,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        for (const c of connections) c.destroy();
        server.close(() => {
          try {
            if (!isPipe) unlinkSync(path);
          } catch {
            /* already gone */
          }
          resolve();
        });
      })),
  };
}
