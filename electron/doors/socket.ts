// The control socket (DESIGN §1): a Unix-domain socket `nexus.sock` (mode 0600) in the data dir, for the CLI.
// Protocol: newline-delimited JSON. A request `{ "id", "method", "input" }` gets `{ "id", "ok": true, "value" }`
// or `{ "id", "ok": false, "error": { code, message } }`; every call goes through dispatch() (zod-validated).
//
// Authentication: the socket's file mode only says "same user id", and an agent's shell runs as the same user.
// So the FIRST line of every connection must be `{ "id", "method": "auth", "input": { "token": T } }`, where T is
// this launch's credential, read from `nexus.sock.token` in the data dir (0600, rewritten at every start; see
// credential.ts for why it lives there). The answer is `{ id, ok: true, value: { authenticated: true } }`.
// Anything else first, or a wrong token, answers `{ id, ok: false, error: { code: "unauthenticated", message } }`
// and the connection is closed. Before authentication a line may be at most 4 KiB.
//
// A second credential, `nexus.hook.token`, is the connected clients' hook's: a connection that authenticated
// with it may call only the contract's hook methods (shared/api: hookMethod); everything else, `subscribe` and
// `webOpen` included, answers `hook_credential` and changes nothing.
//
// The peer check (peer-check.ts, defense in depth): a person-credential call that is neither a hook method nor a
// read (readMethod in the contract) is refused when the process on the other end descends from a connected
// client's or an agent's (peer_refused, peer_unnamed).
//
// After authentication, two requests are the socket's own (not API methods):
// `{ "id", "method": "subscribe" }` answers `{ id, ok: true, value: { subscribed: true } }`, then streams every
// kernel event as `{ "event": NexusEvent }` on that connection (the CLI's `--wait`);
// `{ "id", "method": "webOpen" }` answers `{ id, ok: true, value: { url } }`: a fresh one-time address for the
// browser host (`nexus open`), or `no_browser_host` when this kernel serves none.
//
// No line stops the kernel: each is handled under a guard, so a request that throws answers `internal` and the
// connection and every other one go on.
import { createServer, type Server, type Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import { dispatch, hookRefusal } from '../api/dispatch.js';
import { socketPath } from './socket-path.js';
import { claimSocketPath, listenOwnerOnly } from './socket-file.js';
import type { ApiHost } from './host.js';
import { CREDENTIAL_FILE, HOOK_CREDENTIAL_FILE, removeCredential, sameSecret, writeCredential } from './credential.js';
import { guarded } from './guard.js';
import { MAX_MESSAGE_BYTES } from '../../shared/api/doors.js';
import { errorMessage } from '../../shared/errors.js';
import { HOOK_METHODS, READ_METHODS } from '../../shared/api/index.js';
import { PeerCheck, type AgentGroup } from './peer-check.js';

export { SOCKET_FILE, socketPath } from './socket-path.js';
/** A request line is one API message: anything larger is refused and the connection closed. */
export const MAX_LINE = MAX_MESSAGE_BYTES;
/** Before authentication only the auth line is expected: a stranger gets no room to make the kernel buffer. */
export const MAX_AUTH_LINE = 4096;

export interface SocketDoor {
  path: string;
  close(): Promise<void>;
}

export interface SocketDoorOptions {
  /** A fresh one-time browser-host address (the `webOpen` request), or null when there is no browser host. */
  webOpen?: () => string | null;
}

const refused = (id: unknown) => ({
  id,
  ok: false,
  error: {
    code: 'unauthenticated',
    message: `This connection did not present the control socket's credential. The nexus command reads it from ${CREDENTIAL_FILE} in the data dir, which only the person who started NEXUS can read.`,
  },
});

/** What the door needs beyond the API: the data dir, and the agents' process groups for the peer check. */
export type SocketHost = ApiHost & { dataDir: string; agentProcesses?: () => AgentGroup[] };

export async function startSocketDoor(nexus: SocketHost, opts: SocketDoorOptions = {}): Promise<SocketDoor> {
  const path = socketPath(nexus.dataDir);
  const isPipe = process.platform === 'win32';
  await claimSocketPath(path, isPipe);
  // Written before the socket listens, so a client that can connect can also authenticate.
  const secret = writeCredential(nexus.dataDir);
  const hookSecret = writeCredential(nexus.dataDir, HOOK_CREDENTIAL_FILE);
  const connections = new Set<Socket>();
  const peers = new PeerCheck(nexus.agentProcesses ?? (() => []));
  const server: Server = createServer((conn) => {
    connections.add(conn);
    let buffer = '';
    let authenticated = false;
    let credential: 'person' | 'hook' = 'hook';
    let refusedAlready = false;
    let unsubscribe: (() => void) | null = null;
    const peer = peers.connection(conn, path);
    const gone = new AbortController();
    const send = (msg: unknown) => {
      if (!conn.destroyed) conn.write(`${JSON.stringify(msg)}\n`);
    };
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      if (refusedAlready) return;
      buffer += chunk;
      const limit = authenticated ? MAX_LINE : MAX_AUTH_LINE;
      if (buffer.length > limit && !buffer.slice(0, limit + 1).includes('\n')) {
        send({
          id: null,
          ok: false,
          error: { code: 'too_large', message: `A request line may be at most ${limit} bytes${authenticated ? '' : ' before authentication'}.` },
        });
        conn.destroy();
        return;
      }
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        if (!authenticated) {
          // Synchronous, so a line pipelined right behind the auth line is judged after it.
          if (!authenticate(line)) return;
          continue;
        }
        guarded(
          () => handle(line),
          (e) => send({ id: null, ok: false, error: { code: 'internal', message: `The request failed inside NEXUS: ${errorMessage(e)}` } }),
        );
      }
    });
    const authenticate = (line: string): boolean => {
      let req: unknown;
      try {
        req = JSON.parse(line);
      } catch {
        req = null;
      }
      const r = req && typeof req === 'object' && !Array.isArray(req) ? (req as { id?: unknown; method?: unknown; input?: unknown }) : {};
      const id = typeof r.id === 'number' || typeof r.id === 'string' ? r.id : null;
      const token = r.input && typeof r.input === 'object' ? (r.input as { token?: unknown }).token : undefined;
      const person = sameSecret(token, secret);
      if (r.method !== 'auth' || (!person && !sameSecret(token, hookSecret))) {
        send(refused(id));
        refusedAlready = true;
        buffer = '';
        conn.destroySoon(); // after the refusal is flushed
        return false;
      }
      authenticated = true;
      credential = person ? 'person' : 'hook';
      send({ id, ok: true, value: { authenticated: true } });
      return true;
    };
    const handle = async (line: string) => {
      let req: { id?: unknown; method?: unknown; input?: unknown };
      try {
        req = JSON.parse(line);
      } catch {
        return send({ id: null, ok: false, error: { code: 'invalid_json', message: 'A request is one JSON object per line.' } });
      }
      const rawId = req && typeof req === 'object' ? req.id : null;
      const id = typeof rawId === 'number' || typeof rawId === 'string' ? rawId : null;
      if (!req || typeof req !== 'object' || Array.isArray(req) || typeof req.method !== 'string') {
        return send({ id, ok: false, error: { code: 'invalid_request', message: 'A request is { "id", "method", "input" }.' } });
      }
      if (req.method === 'auth') return send({ id, ok: true, value: { authenticated: true } });
      // Reads decide nothing: naming the peer (a process walk) is spent only where a decision could be taken.
      if (credential === 'person' && !HOOK_METHODS.has(req.method) && !READ_METHODS.has(req.method)) {
        const refusal = await peer.refusal();
        if (refusal) return send({ id, ok: false, error: refusal });
      }
      if (credential === 'hook' && (req.method === 'subscribe' || req.method === 'webOpen')) return send({ id, ok: false, error: hookRefusal(req.method) });
      if (req.method === 'subscribe') {
        if (!unsubscribe) unsubscribe = nexus.onEvent((event) => send({ event }));
        return send({ id, ok: true, value: { subscribed: true } });
      }
      if (req.method === 'webOpen') {
        const url = opts.webOpen?.() ?? null;
        return send(
          url
            ? { id, ok: true, value: { url } }
            : {
                id,
                ok: false,
                error: { code: 'no_browser_host', message: 'This NEXUS serves no browser host (started with --no-web, or it is the desktop app).' },
              },
        );
      }
      // A hook's client is on record before the hook has its answer, so before anything that answer lets run.
      if (credential === 'hook' && HOOK_METHODS.has(req.method)) peer.noteHook(req.input);
      const result = await dispatch(nexus.handlers, req.method, req.input, { door: 'socket', credential, signal: gone.signal });
      send({ id, ...result });
    };
    conn.on('close', () => {
      gone.abort();
      unsubscribe?.();
      connections.delete(conn);
    });
    conn.on('error', () => conn.destroy());
  });

  try {
    await listenOwnerOnly(server, path, isPipe);
  } catch (e) {
    removeCredential(nexus.dataDir, secret);
    removeCredential(nexus.dataDir, hookSecret, HOOK_CREDENTIAL_FILE);
    throw e;
  }

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
          removeCredential(nexus.dataDir, secret);
          removeCredential(nexus.dataDir, hookSecret, HOOK_CREDENTIAL_FILE);
          resolve();
        });
      })),
  };
}
