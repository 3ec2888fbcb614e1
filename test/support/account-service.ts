// A small account service for tests: real HTTP on 127.0.0.1, its own Ed25519 key pair, answering
// GET /v1/entitlements as the test tells it (a token, a status, garbage, silence). Not a test file itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

export type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export interface FakeAccountService {
  url: string;
  publicPem: string;
  privateKey: KeyObject;
  /** Authorization headers received, in order. */
  hits: Array<{ path: string; authorization: string | undefined }>;
  answer: Answer;
  sign(claims: Record<string, unknown>, key?: KeyObject): Promise<string>;
  close(): Promise<void>;
}

export async function fakeAccountService(): Promise<FakeAccountService> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const svc = {
    hits: [],
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
    answer: (_req, res) => res.writeHead(503).end(),
    sign: (claims, key = privateKey) => new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA' }).setSubject('acct_svc').sign(key),
  } as Omit<FakeAccountService, 'url' | 'close'> as FakeAccountService;
  const server = createServer((req, res) => {
    svc.hits.push({ path: req.url ?? '', authorization: req.headers.authorization });
    svc.answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  svc.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return svc;
}

/** Answer 200 application/json { token }. */
export const tokenAnswer =
  (token: string): Answer =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
