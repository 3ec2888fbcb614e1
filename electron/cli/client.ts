// The CLI's way to a running kernel: the control socket of a data dir (doors/socket.ts protocol). It reads
// the launch's credential from the data dir and authenticates before anything else, so the person types
// nothing; a process that cannot read the data dir (an agent in its sandbox) cannot get in.
import { createConnection, type Socket } from 'node:net';
import type { NexusApi, NexusEvent, Result } from '../../shared/api/index.js';
import { createClient } from '../../shared/api/client.js';
import { noKernelThere, socketPath } from '../doors/socket-path.js';
import { credentialPath, readCredential } from '../doors/credential.js';
import { canonicalDataDir } from '../store/data-dir.js';
import { NexusError } from '../../shared/errors.js';

export class NoKernelError extends NexusError {
  constructor(readonly dataDir: string) {
    super('no_kernel', `No NEXUS kernel is running for the data dir ${dataDir}. Start one with: nexus serve --data-dir ${JSON.stringify(dataDir)}`);
  }
}

/** The kernel answered, but this process could not prove it is the person (no readable credential, or a wrong one). */
export class NotAuthenticatedError extends NexusError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

export interface KernelConnection {
  /** The typed API over this connection (shared/api/client.ts): what the commands call. */
  api: NexusApi;
  /** A raw request line, for the door's own requests and for tests: the kernel checks the name and the input. */
  call(method: string, input?: unknown): Promise<Result<unknown>>;
  /** A fresh one-time address for the browser host (a request of the socket door, not an API method). */
  webOpen(): Promise<Result<{ url: string }>>;
  /** Start receiving every kernel event on this connection. */
  subscribe(listener: (event: NexusEvent) => void): Promise<void>;
  close(): void;
}

export function connectKernel(dataDir: string): Promise<KernelConnection> {
  const path = socketPath(canonicalDataDir(dataDir)); // as the kernel names it (app.ts)
  return new Promise((resolve, reject) => {
    const sock: Socket = createConnection(path);
    let seq = 0;
    let buffer = '';
    const pending = new Map<number, (r: Result<unknown>) => void>();
    const listeners: Array<(e: NexusEvent) => void> = [];
    const failAll = (message: string) => {
      for (const [, r] of pending) r({ ok: false, error: { code: 'disconnected', message } });
      pending.clear();
    };
    sock.setEncoding('utf8');
    sock.once('connect', () => {
      sock.removeAllListeners('error');
      sock.on('error', (e) => failAll(`the kernel connection failed: ${e.message}`));
      let token: string;
      try {
        token = readCredential(dataDir);
      } catch (e) {
        sock.destroy();
        const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'it is missing' : (e as Error).message;
        return reject(
          new NotAuthenticatedError(
            `The kernel for ${dataDir} is running, but its credential ${credentialPath(dataDir)} cannot be read (${why}): only the person who started NEXUS can use the nexus command on it.`,
          ),
        );
      }
      void request('auth', { token }).then((r) => {
        if (r.ok) return resolve(conn);
        sock.destroy();
        reject(
          new NotAuthenticatedError(
            r.error.code === 'unauthenticated'
              ? `The kernel for ${dataDir} refused the credential in ${credentialPath(dataDir)}: ${r.error.message}`
              : r.error.message,
          ),
        );
      });
    });
    sock.once('error', (e: NodeJS.ErrnoException) => {
      if (noKernelThere(e)) reject(new NoKernelError(dataDir));
      else reject(e);
    });
    sock.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        let msg: { id?: number; event?: NexusEvent } & Record<string, unknown>;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.event) {
          for (const l of listeners) l(msg.event);
          continue;
        }
        const done = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
        if (done) {
          pending.delete(msg.id as number);
          const { id: _id, ...result } = msg;
          void _id;
          done(result as unknown as Result<unknown>);
        }
      }
    });
    sock.on('close', () => failAll('the kernel closed the connection'));
    const request = (method: string, input: unknown) =>
      new Promise<Result<unknown>>((res) => {
        const id = ++seq;
        pending.set(id, res);
        sock.write(`${JSON.stringify({ id, method, input: input ?? {} })}\n`);
      });
    const conn: KernelConnection = {
      api: createClient({ call: request }),
      call: (method, input) => request(method, input),
      webOpen: () => request('webOpen', {}) as Promise<Result<{ url: string }>>,
      async subscribe(listener) {
        listeners.push(listener);
        if (listeners.length === 1) {
          const r = await request('subscribe', {});
          if (!r.ok) throw new Error(r.error.message);
        }
      },
      close: () => sock.destroy(),
    };
  });
}

/** One call: connect, call, disconnect. Rejects with NoKernelError when nobody answers for that data dir. */
export async function callKernel(dataDir: string, method: string, input?: unknown): Promise<Result<unknown>> {
  const conn = await connectKernel(dataDir);
  try {
    return await conn.call(method, input);
  } finally {
    conn.close();
  }
}
