// The only way out of a sandbox that may reach some hosts: an HTTP proxy in the kernel, on a unix socket
// bound into the sandbox (Linux: the sandbox has its own network namespace, so nothing else is reachable)
// or a loopback port (macOS: the Seatbelt profile allows only that port). It serves CONNECT (https and any
// TLS) and one absolute-form http:// request per connection, each to the one address destinationFor checked,
// and refuses the rest with a sentence, remembering what it refused so the row's result can name it.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { destinationFor, kernelLookup, type Lookup } from './destination.js';
import { parseHead, upstreamHead } from './proxy-request.js';

export interface NetProxy {
  /** The unix socket path, or the loopback port. */
  address: string | number;
  /** Hosts refused so far (for the row's result), control bytes escaped. */
  refused: Set<string>;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** How names are resolved (the kernel's resolver; a test's, to play DNS). */
  lookup?: Lookup;
}

const MAX_HEAD = 16 * 1024;
const STATUS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 501: 'Not Implemented', 502: 'Bad Gateway' };

function reply(sock: Socket, status: number, why: string): void {
  const body = `${why}\n`;
  sock.end(
    `HTTP/1.1 ${status} ${STATUS[status]}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

async function serve(sock: Socket, head: string, rest: Buffer, allow: readonly string[], refused: Set<string>, lookup: Lookup): Promise<void> {
  const p = parseHead(head);
  if (!p.ok) return reply(sock, p.status, p.why);
  const req = p.req;
  const d = await destinationFor(req.host, allow, lookup);
  if (!d.ok) {
    if (d.refused) refused.add(d.host);
    return reply(sock, d.refused ? 403 : 502, `NEXUS sandbox: ${d.why}.`);
  }
  if (sock.destroyed) return;
  const up = connect({ host: d.address, port: req.port });
  up.on('error', () => {
    if (up.connecting && !sock.destroyed) reply(sock, 502, `NEXUS sandbox: ${d.host} (${d.address}) did not accept the connection.`);
    else sock.destroy();
  });
  up.on('close', (hadError) => (hadError ? sock.destroy() : sock.end()));
  sock.on('close', () => up.destroy());
  up.on('connect', () => {
    if (req.kind === 'connect') {
      sock.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (rest.length) up.write(rest);
      sock.pipe(up).pipe(sock);
    } else {
      up.write(upstreamHead(req, d.host));
      // Only this request's body goes on: a second request on the connection reaches nobody.
      let left = req.bodyLength;
      const forward = (chunk: Buffer) => {
        if (left <= 0) return;
        const part = chunk.subarray(0, left);
        left -= part.length;
        if (!up.write(part)) {
          sock.pause();
          up.once('drain', () => sock.resume());
        }
      };
      forward(rest);
      sock.on('data', forward);
      up.pipe(sock);
    }
    sock.resume();
  });
}

function handle(sock: Socket, allow: readonly string[], refused: Set<string>, lookup: Lookup): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > MAX_HEAD) sock.destroy();
      return;
    }
    sock.off('data', onData);
    sock.pause();
    serve(sock, head.subarray(0, end).toString('latin1'), head.subarray(end + 4), allow, refused, lookup).catch(() => sock.destroy());
  };
  sock.on('data', onData);
  // A client that stops sending before its request is whole asked for nothing.
  sock.once('end', () => head.indexOf('\r\n\r\n') < 0 && sock.destroy());
  sock.on('error', () => sock.destroy());
}

/** Start a proxy for `allow` on a unix socket path, or on an ephemeral loopback port (`path` null). */
export function startProxy(allow: readonly string[], path: string | null, o: ProxyOptions = {}): Promise<NetProxy> {
  const refused = new Set<string>();
  const sockets = new Set<Socket>();
  // Half-open: a client may end its side once its request is sent (printf | socat) and still read the answer.
  const server: Server = createServer({ allowHalfOpen: true }, (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    handle(s, allow, refused, o.lookup ?? kernelLookup);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      const a = server.address();
      resolve({
        address: typeof a === 'string' ? a : a!.port,
        refused,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    };
    if (path) server.listen(path, ready);
    else server.listen(0, '127.0.0.1', ready);
  });
}
