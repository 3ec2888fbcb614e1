// What one proxy request asks for, read strictly: a CONNECT to host:port, or one absolute-form http:// request
// whose destination is its request line (never its Host header), forwarded in origin form with the Host the
// request line names and `Connection: close`, and with its body measured, so nothing after that one request
// on the connection reaches the server.

export type ProxyRequest =
  | { kind: 'connect'; host: string; port: number }
  | { kind: 'http'; host: string; port: number; method: string; path: string; headers: Array<[string, string]>; bodyLength: number };
export type Parsed = { ok: true; req: ProxyRequest } | { ok: false; status: number; why: string };
export type HttpRequest = Extract<ProxyRequest, { kind: 'http' }>;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const REQUEST_LINE = new RegExp(`^(${TOKEN}) ([^ ]+) HTTP/1\\.[01]$`);
const HEADER = new RegExp(`^(${TOKEN}):[ \\t]*([^\\x00-\\x08\\x0a-\\x1f\\x7f]*?)[ \\t]*$`);
// Headers for this hop only (RFC 9110 §7.6.1), and Host, which the request line decides.
const HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade', 'host']);
const ONLY = 'NEXUS sandbox: only CONNECT and http:// proxy requests are served';

const utf8 = new TextDecoder('utf-8');
const bad = (why: string, status = 400): Parsed => ({ ok: false, status, why: `NEXUS sandbox: ${why}` });

/** host and port of an authority (`name:443`, `[::1]:80`), the raw host as written; null if malformed. */
export function splitHostPort(s: string, defPort: number): { host: string; port: number } | null {
  const m = s.startsWith('[') ? /^\[([^\]]*)\](?::([0-9]{1,5}))?$/.exec(s) : /^([^:]*)(?::([0-9]{1,5}))?$/.exec(s);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : defPort;
  // The head is read as bytes (latin1); a host is UTF-8 text (bytes that are not become U+FFFD, refused later).
  return port > 0 && port < 65536 ? { host: utf8.decode(Buffer.from(m[1]!, 'latin1')), port } : null;
}

/** The head of one request (latin1, without the blank line that ends it). */
export function parseHead(head: string): Parsed {
  const [line = '', ...rest] = head.split('\r\n');
  const m = REQUEST_LINE.exec(line);
  if (!m) return { ok: false, status: 400, why: ONLY };
  const [, method, target] = m as unknown as [string, string, string];
  if (method === 'CONNECT') {
    const hp = splitHostPort(target, 443);
    return hp ? { ok: true, req: { kind: 'connect', ...hp } } : bad(`"${target}" is not host:port`);
  }
  const u = /^http:\/\/([^/?#]*)(.*)$/i.exec(target);
  if (!u) return { ok: false, status: 400, why: ONLY };
  const hp = splitHostPort(u[1]!, 80);
  if (!hp) return bad('the request names no host:port after http://');
  const path = u[2]!.split('#')[0]!;
  if (!/^[\x21-\x7e]*$/.test(path)) return bad('the request path holds bytes a URL may not');
  const headers: Array<[string, string]> = [];
  for (const l of rest) {
    const h = HEADER.exec(l);
    if (!h) return bad('a header line is malformed');
    headers.push([h[1]!, h[2]!]);
  }
  const named = (n: string) => headers.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
  if (named('transfer-encoding').length) return bad('a chunked request body is not served over http:// (send Content-Length, or use https)', 501);
  const lengths = new Set(named('content-length'));
  if (lengths.size > 1 || [...lengths].some((v) => !/^[0-9]{1,15}$/.test(v))) return bad('the Content-Length is malformed');
  const listed = new Set(named('connection').flatMap((v) => v.split(',').map((t) => t.trim().toLowerCase())));
  return {
    ok: true,
    req: {
      kind: 'http',
      ...hp,
      method,
      path: path.startsWith('/') ? path : `/${path}`,
      headers: headers.filter(([k]) => !HOP.has(k.toLowerCase()) && !listed.has(k.toLowerCase())),
      bodyLength: lengths.size ? Number([...lengths][0]) : 0,
    },
  };
}

/** The head sent to the server: origin form, the Host of the request line (`host` normalised), one request. */
export function upstreamHead(req: HttpRequest, host: string): string {
  const authority = `${host.includes(':') ? `[${host}]` : host}${req.port === 80 ? '' : `:${req.port}`}`;
  const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${authority}`, ...req.headers.map(([k, v]) => `${k}: ${v}`), 'Connection: close'];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
