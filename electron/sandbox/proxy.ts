// The only way out of a sandbox that may reach some hosts: an HTTP proxy in the kernel, on a unix socket
// bound into the sandbox (Linux: the sandbox has its own network namespace, so nothing else is reachable)
// or a loopback port (macOS: the Seatbelt profile allows only that port). It serves CONNECT (https and any
// TLS) and absolute-form http:// requests to the allowed hosts and refuses the rest with 403, remembering
// what it refused so the row's result can name it.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { hostAllowed } from './policy.js';

export interface NetProxy {
  /** The unix socket path, or the loopback port. */
  address: string | number;
  /** Hosts refused so far (for the row's result). */
  refused: Set<string>;
  close(): Promise<void>;
}

const MAX_HEAD = 16 * 1024;

function splitHostPort(s: string, defPort: number): { host: string; port: number } | null {
  const m = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(s);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : defPort;
  return port > 0 && port < 65536 ? { host: m[1]!, port } : null;
}

function handle(sock: Socket, allow: readonly string[], refused: Set<string>): void {
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
    const line = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
    const [method, target] = line.split(' ');
    let dest: { host: string; port: number } | null = null;
    let tunnel = false;
    if (method === 'CONNECT' && target) {
      dest = splitHostPort(target, 443);
      tunnel = true;
    } else if (target?.startsWith('http://')) {
      try {
        const u = new URL(target);
        dest = { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 80) };
      } catch {
        dest = null;
      }
    }
    if (!dest || !hostAllowed(dest.host, allow)) {
      if (dest) refused.add(dest.host);
      const why = dest
        ? `NEXUS sandbox: ${dest.host} is not in this agent's network allow list`
        : 'NEXUS sandbox: only CONNECT and http:// proxy requests are served';
      sock.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(why) + 1}\r\nConnection: close\r\n\r\n${why}\n`);
      return;
    }
    const up = connect(dest.port, dest.host);
    up.on('error', () => {
      if (!sock.destroyed) sock.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    up.on('connect', () => {
      if (tunnel) {
        sock.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length) up.write(rest);
      } else up.write(head);
      sock.pipe(up).pipe(sock);
      sock.resume();
    });
    sock.on('close', () => up.destroy());
    up.on('close', () => sock.destroy());
  };
  sock.on('data', onData);
  sock.on('error', () => sock.destroy());
}

/** Start a proxy for `allow` on a unix socket path, or on an ephemeral loopback port (`path` null). */
export function startProxy(allow: readonly string[], path: string | null): Promise<NetProxy> {
  const refused = new Set<string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    handle(s, allow, refused);
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
