// One request to the kernel of a data dir over its control socket (electron/doors/socket.ts protocol:
// newline-delimited JSON, `{ id, method, input }` → `{ id, ok, value | error }`). Node built-ins only.
// The hook presents the HOOK's credential (`nexus.hook.token`), never the person's: with it the kernel answers
// only the hook's methods (ask about a tool call, report a session's end), so a client that got hold of it still
// cannot decide anything. A kernel that has no credential ignores that line's answer.
import { createConnection } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type KernelReply = { kind: 'down' } | { kind: 'error'; message: string } | { kind: 'ok'; value: unknown };

/**
 * The same path as doors/socket-path.ts socketPath (a test holds them equal); copied: the hook's layer (external)
 * sits below the doors, and this file stays Node built-ins only.
 * node:crypto is loaded only on Windows: it is the costliest module to start, and only the pipe name needs it.
 */
export const hookSocketPath = (dataDir: string, platform: NodeJS.Platform = process.platform): string => {
  if (platform !== 'win32') return join(dataDir, 'nexus.sock');
  const { createHash } = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  return `\\\\.\\pipe\\nexus-${createHash('sha256').update(dataDir.toLowerCase()).digest('hex').slice(0, 24)}`;
};

/** No kernel listens there: the same codes as doors/socket-path.ts noKernelThere (a test holds them equal). */
export const hookNoKernelThere = (e: NodeJS.ErrnoException): boolean =>
  e.code === 'ENOENT' || e.code === 'ECONNREFUSED' || e.code === 'ENOTSOCK' || e.code === 'ENOTDIR';

const CREDENTIAL_FILE = 'nexus.hook.token';

export function askKernel(dataDir: string, method: string, input: unknown): Promise<KernelReply> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: KernelReply) => {
      if (settled) return;
      settled = true;
      sock.destroy();
      resolve(r);
    };
    const sock = createConnection(hookSocketPath(dataDir));
    let buffer = '';
    sock.setEncoding('utf8');
    sock.once('connect', () => {
      let token: string | null = null;
      try {
        token = readFileSync(join(dataDir, CREDENTIAL_FILE), 'utf8').trim();
      } catch {
        /* a kernel without a credential file */
      }
      if (token) sock.write(`${JSON.stringify({ id: 0, method: 'auth', input: { token } })}\n`);
      sock.write(`${JSON.stringify({ id: 1, method, input })}\n`);
    });
    sock.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg: { id?: unknown; ok?: unknown; value?: unknown; error?: { code?: string; message?: string } };
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.id === 0 && msg.ok === false && msg.error?.code === 'unauthenticated')
          return done({ kind: 'error', message: `the kernel refused this hook's credential: ${msg.error.message ?? ''}` });
        if (msg.id !== 1) continue;
        if (msg.ok === true) return done({ kind: 'ok', value: msg.value });
        return done({ kind: 'error', message: msg.error?.message ?? 'the kernel answered with an error' });
      }
    });
    sock.once('error', (e: NodeJS.ErrnoException) => {
      if (hookNoKernelThere(e)) done({ kind: 'down' });
      else done({ kind: 'error', message: `the control socket failed: ${e.message}` });
    });
    sock.once('close', () => done({ kind: 'error', message: 'NEXUS closed the connection before it answered (it may have stopped)' }));
  });
}
