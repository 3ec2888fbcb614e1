// The proxy over a real unix socket, spoken to in raw HTTP as a sandboxed command would, in front of a real
// local HTTP server that plays the host's page an agent must not reach.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Lookup } from './destination.js';
import { startProxy, type NetProxy } from './proxy.js';
import { world } from '../../test/support/world.js';

const PAGE = 'PAGE-OF-THE-HOST';
let server: Server;
let port: number;
let seen: Array<{ url: string; host: string | undefined; connection: string | undefined; from: string | undefined }> = [];
let w = world();
let proxy: NetProxy | null = null;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host, connection: req.headers.connection, from: req.socket.remoteAddress });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(async () => {
  await proxy?.close();
  proxy = null;
  await w.cleanup();
  w = world();
  seen = [];
});

async function start(allow: string[], lookup?: Lookup): Promise<NetProxy> {
  proxy = await startProxy(allow, join(w.dir('proxy-test'), 'proxy.sock'), lookup ? { lookup } : {});
  return proxy;
}

/** Everything the proxy answers to `bytes`, until it closes the connection. */
function ask(p: NetProxy, bytes: string, o: { halfClose?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(p.address as string);
    const got: Buffer[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      resolve(`${Buffer.concat(got).toString('latin1')}[timed out]`);
    }, 5000);
    s.on('data', (c) => got.push(c));
    s.on('error', reject);
    s.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(got).toString('latin1'));
    });
    if (o.halfClose) s.end(Buffer.from(bytes, 'latin1'));
    else s.write(Buffer.from(bytes, 'latin1'));
  });
}
const get = (path = '/') => `GET ${path} HTTP/1.1\r\nHost: whatever\r\nConnection: close\r\n\r\n`;
const tunnel = (authority: string) => `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n${get()}`;
/** A resolver that answers from a script, one answer per call, and counts the calls. */
const scripted = (...answers: string[][]) => {
  const calls: string[] = [];
  const lookup: Lookup = async (host) => {
    calls.push(host);
    const a = answers[Math.min(calls.length, answers.length) - 1]!;
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
};

describe('the proxy refuses names that smuggle another destination', () => {
  it('CONNECT 127.0.0.1\\0.allowed.invalid under *.allowed.invalid: refused, named with the NUL escaped, nothing reached', async () => {
    const p = await start(['*.allowed.invalid']);
    const out = await ask(p, tunnel(`127.0.0.1\0.allowed.invalid:${port}`));
    expect(out).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(out).toContain('"127.0.0.1\\x00.allowed.invalid" is not a well-formed host name');
    expect(out).not.toContain(PAGE);
    expect(seen).toEqual([]);
    expect([...p.refused]).toEqual(['127.0.0.1\\x00.allowed.invalid']);
  });
  it('absolute-form http:// with a NUL, a %00, an underscore, a user name or a space in the host: refused, nothing reached', async () => {
    const p = await start(['*.allowed.invalid']);
    for (const host of ['127.0.0.1\0.allowed.invalid', '127.0.0.1%00.allowed.invalid', '127_0_0_1.allowed.invalid', 'a.allowed.invalid@127.0.0.1']) {
      const out = await ask(p, `GET http://${host}:${port}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(out, host).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(out).not.toContain(PAGE);
    }
    expect(seen).toEqual([]);
  });
});

describe('the proxy never reaches a non-public address unless a rule names it', () => {
  it('127.0.0.1, [::ffff:127.0.0.1] and 169.254.169.254 are refused when no rule names them', async () => {
    const p = await start(['*.allowed.invalid', 'localhost']);
    for (const a of [`127.0.0.1:${port}`, `[::ffff:127.0.0.1]:${port}`, '169.254.169.254:80', `[::1]:${port}`]) {
      const out = await ask(p, tunnel(a));
      expect(out, a).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*is not in this agent's network allow list/);
    }
    expect([...p.refused]).toEqual(['127.0.0.1', '169.254.169.254', '::1']);
    expect(seen).toEqual([]);
  });
  it('an allowed name that resolves to loopback (localhost) is refused, naming the address', async () => {
    const p = await start(['localhost']);
    const out = await ask(p, tunnel(`localhost:${port}`));
    expect(out).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*localhost leads to (127\.0\.0\.1|::1), a loopback address; only a rule naming that exact address/);
    expect(seen).toEqual([]);
    expect([...p.refused]).toEqual(['localhost']);
  });
  it('names that resolve to metadata, private, mapped or unspecified addresses are refused', async () => {
    for (const answer of [['169.254.169.254'], ['::ffff:169.254.169.254'], ['10.0.0.1', 'fd00::1'], ['0.0.0.0'], ['::'], ['fe80::1'], ['100.64.0.1']]) {
      const { lookup } = scripted(answer);
      const p = await start(['*.allowed.invalid'], lookup);
      const out = await ask(p, tunnel(`meta.allowed.invalid:${port}`));
      expect(out, answer.join()).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*meta\.allowed\.invalid leads to/);
      await proxy!.close();
      proxy = null;
    }
    expect(seen).toEqual([]);
  });
  it('DNS rebinding gets nothing: one lookup, and the connection goes to the address that was checked', async () => {
    // First answer: the address a rule names; any later one: the metadata service.
    const { lookup, calls } = scripted(['127.0.0.1'], ['169.254.169.254']);
    const p = await start(['*.allowed.invalid', '127.0.0.1'], lookup);
    const out = await ask(p, tunnel(`rebind.allowed.invalid:${port}`));
    expect(out).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(out).toContain(PAGE);
    expect(calls).toEqual(['rebind.allowed.invalid']);
    expect(seen.map((s) => s.from)).toEqual(['127.0.0.1']);
  });
  it('of several answers, only one a rule allows is used', async () => {
    const { lookup } = scripted(['10.0.0.1', '169.254.169.254', '127.0.0.1']);
    const p = await start(['*.allowed.invalid', '127.0.0.1'], lookup);
    expect(await ask(p, tunnel(`mixed.allowed.invalid:${port}`))).toContain(PAGE);
  });
});

describe('allowed hosts work end to end, one request per connection', () => {
  it('CONNECT to 127.0.0.1 when a rule names it', async () => {
    const p = await start(['127.0.0.1']);
    const out = await ask(p, tunnel(`127.0.0.1:${port}`));
    expect(out).toContain(PAGE);
    expect(p.refused.size).toBe(0);
  });
  it('absolute-form http://: the request line picks the destination and the Host; a second request on the connection reaches nobody', async () => {
    const p = await start(['127.0.0.1', '*.allowed.invalid']);
    const first = `GET http://127.0.0.1:${port}/one?x=1 HTTP/1.1\r\nHost: 169.254.169.254\r\nProxy-Connection: keep-alive\r\n\r\n`;
    const second = `GET http://other.allowed.invalid:${port}/two HTTP/1.1\r\nHost: other.allowed.invalid\r\n\r\n`;
    const out = await ask(p, first + second);
    expect(out).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(out.split(PAGE)).toHaveLength(2);
    expect(seen).toEqual([{ url: '/one?x=1', host: `127.0.0.1:${port}`, connection: 'close', from: '127.0.0.1' }]);
  });
  it('a client that ends its side after the request (printf | socat) still reads the answer, tunnelled or not', async () => {
    const p = await start(['127.0.0.1']);
    expect(await ask(p, tunnel(`127.0.0.1:${port}`), { halfClose: true })).toContain(PAGE);
    expect(await ask(p, `GET http://127.0.0.1:${port}/h HTTP/1.1\r\n\r\n`, { halfClose: true })).toContain(PAGE);
    expect(seen.map((s) => s.url)).toEqual(['/', '/h']);
  });
  it('a body is forwarded by its Content-Length and no further', async () => {
    const p = await start(['127.0.0.1']);
    const body = 'abc';
    const out = await ask(p, `POST http://127.0.0.1:${port}/p HTTP/1.1\r\nContent-Length: 3\r\n\r\n${body}GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(out).toContain(PAGE);
    expect(seen.map((s) => s.url)).toEqual(['/p']);
  });
  it('chunked bodies and conflicting lengths are refused with a sentence', async () => {
    const p = await start(['127.0.0.1']);
    const chunked = await ask(p, `POST http://127.0.0.1:${port}/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
    expect(chunked).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n[\s\S]*a chunked request body is not served/);
    const two = await ask(p, `POST http://127.0.0.1:${port}/ HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`);
    expect(two).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*Content-Length is malformed/);
    expect(seen).toEqual([]);
  });
});
