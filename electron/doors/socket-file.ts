// The control socket's file: claiming its path (not too long, not answered by a live kernel, a stale file left by
// one that died removed) and listening on it owner-only from the first moment.
import { createConnection, type Server } from 'node:net';
import { chmodSync, existsSync, unlinkSync } from 'node:fs';

// sun_path is 104 bytes on macOS, 108 on Linux (NUL included).
const MAX_SOCKET_PATH = 103;

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

/** Make `path` free for this kernel, or say why it cannot be: too long, or another kernel answers on it. */
export async function claimSocketPath(path: string, isPipe: boolean): Promise<void> {
  if (!isPipe && Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(`The control socket path ${path} is too long for a Unix socket (at most ${MAX_SOCKET_PATH} bytes); use a shorter --data-dir.`);
  }
  if (!isPipe && existsSync(path)) {
    if (await socketAlive(path)) throw new Error(`Another NEXUS kernel is answering on ${path}.`);
    unlinkSync(path); // stale: left by a kernel that died
  }
}

/** Listen on `path`, created 0600 from the start (umask), not chmod'ed after someone could have connected. */
export async function listenOwnerOnly(server: Server, path: string, isPipe: boolean): Promise<void> {
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
}
