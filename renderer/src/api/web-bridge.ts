// The web bridge: implements NexusApi over the browser host's one WebSocket (electron/doors/web.ts) when the
// page runs in a browser rather than in the Electron window (where the preload provides window.nexus).
// Calls made while (re)connecting wait for the socket; a call in flight when it drops answers `disconnected`.
// A call still waiting (never sent) when a connection attempt fails answers `disconnected` too, and is
// DROPPED from the queue: it was answered "not sent", so it must never be sent later (else an Approve clicked
// while NEXUS was unreachable would be reported failed, then go through silently when the connection returns).
// Authentication (the protocol is in electron/doors/web.ts): the first message on every socket presents a key.
// The first socket spends the one-time launch token from the address's fragment and receives a session secret;
// reconnects present that secret. Both live in this closure's memory only (no cookie, no storage), so a reload
// forgets them and the bridge goes `locked`: the window then says to run `nexus open` for a new address.
// The methods are the typed client (shared/api/client.ts) over this socket: it names them without loading the
// schemas, so the window's first paint never waits for zod to be parsed and built; the host validates each input.
import type { MethodName, NexusApi, NexusEvent, Result } from '../../../shared/api/index.js';
import { createClient } from '../../../shared/api/client.js';
import { MAX_MESSAGE_BYTES } from '../../../shared/api/doors.js';

/** The part of the DOM WebSocket the bridge uses (so a test can hand it any conforming socket). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

/** `locked`: NEXUS refused this tab's key, or it has none (a reload); it will not retry by itself. */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'locked';

export interface WebBridge extends NexusApi {
  /** Connection state changes (the top bar shows a lost connection; stores refetch on reopen). */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** The state now (a listener added after the socket opened has not heard 'open'). */
  connectionState(): ConnectionState;
  /** Why the bridge is `locked`, in words for the person (null otherwise). */
  lockReason(): string | null;
  close(): void;
}

export interface WebBridgeOptions {
  url: string;
  /** The one-time launch token from the address (`#token=…`); spent on the first connection. */
  launch?: string | null;
  socket?: SocketFactory;
  /** Delay before reconnecting, ms. */
  retryMs?: number;
}

const OPEN = 1;
/** The browser host closes a connection whose message exceeds the one bound every door shares. */
const MAX_FRAME_BYTES = MAX_MESSAGE_BYTES;
/** Said when the page has no key at all: opened without the printed address, or reloaded. */
export const NO_KEY_MESSAGE =
  'This tab holds no key to NEXUS (a reload forgets it). Run `nexus open` in a terminal (with the same --data-dir, if you gave one) and open the address it prints.';

export function createWebBridge(opts: WebBridgeOptions): WebBridge {
  const makeSocket: SocketFactory = opts.socket ?? ((u) => new WebSocket(u) as unknown as SocketLike);
  const retryMs = opts.retryMs ?? 500;
  const listeners = new Set<(e: NexusEvent) => void>();
  const connectionListeners = new Set<(s: ConnectionState) => void>();
  const inFlight = new Map<number, (r: Result<unknown>) => void>();
  let queue: { id: number; frame: string }[] = [];
  let nextId = 1;
  let socket: SocketLike | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let state: ConnectionState = 'connecting';
  // The keys, in memory only: the launch token is spent once; the session secret it buys serves reconnects.
  let launch = opts.launch || null;
  let session: string | null = null;
  let lockReason: string | null = null;

  const setState = (s: ConnectionState) => {
    state = s;
    connectionListeners.forEach((l) => l(s));
  };

  const answerAll = (code: string, message: (id: number) => string) => {
    for (const [id, answer] of inFlight) answer({ ok: false, error: { code, message: message(id) } });
    inFlight.clear();
  };
  const lock = (reason: string) => {
    lockReason = reason;
    queue = [];
    answerAll('unauthenticated', () => reason);
    setState('locked');
  };

  const connect = () => {
    if (closed) return;
    const key = session ? { session } : launch ? { launch } : null;
    if (!key) return lock(NO_KEY_MESSAGE);
    setState('connecting');
    const ws = makeSocket(opts.url);
    socket = ws;
    let authed = false;
    ws.onopen = () => {
      if ('launch' in key) launch = null; // one exchange: never presented twice
      ws.send(JSON.stringify({ auth: key }));
    };
    ws.onmessage = (ev) => {
      let msg: { id?: number | null; result?: Result<unknown>; event?: NexusEvent; auth?: { ok?: boolean; session?: string; message?: string } };
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      if (!authed) {
        if (!msg.auth?.ok) {
          socket = null;
          ws.close();
          return lock(typeof msg.auth?.message === 'string' ? msg.auth.message : NO_KEY_MESSAGE);
        }
        authed = true;
        if (typeof msg.auth.session === 'string') session = msg.auth.session;
        const pending = queue;
        queue = [];
        for (const { frame } of pending) ws.send(frame);
        setState('open');
        return;
      }
      if (msg.event) {
        for (const l of [...listeners]) {
          try {
            l(msg.event);
          } catch (e) {
            // eslint-disable-next-line no-console -- the page's own console is where a window listener's failure is read
            console.error('nexus event listener failed', e);
          }
        }
      } else if (typeof msg.id === 'number' && msg.result) {
        inFlight.get(msg.id)?.(msg.result);
        inFlight.delete(msg.id);
      }
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      const unsent = new Set(queue.map((q) => q.id));
      queue = [];
      for (const [id, answer] of inFlight) {
        answer({
          ok: false,
          error: {
            code: 'disconnected',
            message: unsent.has(id)
              ? 'Not sent: NEXUS cannot be reached, so nothing was done. Try again once the connection is back.'
              : 'The connection to NEXUS dropped before it answered: check whether it was done before trying again.',
          },
        });
        inFlight.delete(id);
      }
      setState('closed');
      if (!closed) timer = setTimeout(connect, retryMs);
    };
  };

  const call = (method: MethodName, input: unknown): Promise<Result<unknown>> =>
    new Promise((resolve) => {
      if (closed) return resolve({ ok: false, error: { code: 'disconnected', message: 'The window closed its connection.' } });
      if (state === 'locked') return resolve({ ok: false, error: { code: 'unauthenticated', message: lockReason ?? NO_KEY_MESSAGE } });
      const id = nextId++;
      const frame = JSON.stringify({ id, method, input: input ?? {} });
      // Refused here rather than sent: the host would close the socket, failing every other call in flight.
      const bytes = new TextEncoder().encode(frame).length;
      if (bytes > MAX_FRAME_BYTES) {
        return resolve({
          ok: false,
          error: {
            code: 'too_large',
            message: `Too large to send: ${bytes} bytes; the window sends at most ${MAX_FRAME_BYTES / (1024 * 1024)} MiB at a time. Nothing was sent.`,
          },
        });
      }
      inFlight.set(id, resolve);
      if (socket && socket.readyState === OPEN && state === 'open') socket.send(frame);
      else queue.push({ id, frame });
    });

  const client = createClient({
    call,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const bridge: WebBridge = Object.freeze({
    ...client,
    onConnection(listener: (s: ConnectionState) => void) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    connectionState: () => state,
    lockReason: () => lockReason,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close();
    },
  });
  connect();
  return bridge;
}

/**
 * Where the page finds the API: the preload's window.nexus in Electron, else the browser host's socket. The
 * launch token is taken from the address's fragment and wiped from the address bar (and history) at once,
 * before the views read the fragment as their route. A new address pasted into this tab differs only in its
 * fragment, which browsers treat as a move within the page: the page reloads itself to take the new token.
 */
export function resolveApi(win: {
  nexus?: NexusApi;
  location: { protocol: string; host: string; hash: string; pathname: string; search: string; reload?(): void };
  history?: { replaceState(data: unknown, unused: string, url?: string): void };
  addEventListener?(type: 'hashchange', listener: () => void): void;
}): NexusApi & Partial<WebBridge> {
  if (win.nexus) return win.nexus;
  const m = /^#token=([A-Za-z0-9_-]+)$/.exec(win.location.hash);
  if (m) win.history?.replaceState(null, '', `${win.location.pathname}${win.location.search}`);
  win.addEventListener?.('hashchange', () => {
    if (/^#token=/.test(win.location.hash)) win.location.reload?.();
  });
  const scheme = win.location.protocol === 'https:' ? 'wss' : 'ws';
  return createWebBridge({ url: `${scheme}://${win.location.host}/api`, launch: m?.[1] ?? null });
}
