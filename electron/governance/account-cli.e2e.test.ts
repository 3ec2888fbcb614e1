// `nexus entitlements refresh [--json]` end to end: a real `nexus serve` process (built dist, fresh temp data
// dir) started with NEXUS_ACCOUNT_URL / NEXUS_ACCOUNT_TOKEN pointing at a small account service on 127.0.0.1
// in this process; each command its own process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { build, serve, type Served } from '../../test/support/serve.js';
import { fakeAccountService, tokenAnswer, type FakeAccountService } from '../../test/support/account-service.js';

const CREDENTIAL = 'cli-acct-cred-0d9e8f7a6b5c-SECRET';
let s: Served;
let svc: FakeAccountService;
const exp = (secs: number) => Math.floor(Date.now() / 1000) + secs;

beforeAll(async () => {
  build();
  svc = await fakeAccountService();
  svc.answer = (_q, res) => res.writeHead(401).end(); // the start-up refresh fails: nothing stored
  s = await serve({ NEXUS_ENTITLEMENT_PUBLIC_KEY: svc.publicPem, NEXUS_ACCOUNT_URL: svc.url, NEXUS_ACCOUNT_TOKEN: CREDENTIAL });
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await svc?.close();
});

describe('nexus entitlements refresh', () => {
  it('the start-up refresh failed with one log line and no secret; show says where the entitlement comes from', async () => {
    await s.until('the start-up refresh', async () => svc.hits.length >= 1 && /entitlement refresh at start failed/.test(s.out()));
    expect(s.out()).toMatch(/account_unauthorized/);
    expect(s.out()).not.toContain(CREDENTIAL);
    const shown = await s.json('entitlements', 'show');
    expect(shown).toMatchObject({
      entitled: false,
      status: 'absent',
      source: null,
      refreshed_at: null,
      account: { configured: true, url: svc.url, last_refresh: { ok: false, code: 'account_unauthorized' } },
    });
  });

  it('--json on a refusal: exit 1, {ok: false, error: {code, message}} on stdout, the sentence on stderr, the previous state kept', async () => {
    svc.answer = (_q, res) => res.writeHead(401).end();
    const r = await s.nexus('entitlements', 'refresh', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual({
      ok: false,
      error: { code: 'account_unauthorized', message: expect.stringMatching(new RegExp(`^The account service at ${svc.url} answered 401: sign in again`)) },
    });
    expect(r.err).toMatch(/answered 401: sign in again.*\(account_unauthorized\)/);
    expect(r.out + r.err).not.toContain(CREDENTIAL);
    svc.answer = (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('garbage');
    expect(JSON.parse((await s.nexus('entitlements', 'refresh', '--json')).out)).toMatchObject({ error: { code: 'account_bad_response' } });
    expect(await s.json('entitlements', 'show')).toMatchObject({ status: 'absent', source: null });
  });

  it('--json on success: the verified entitlement, source account, refreshed_at; text output says where it came from', async () => {
    svc.answer = tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(3600) }));
    const v = await s.json<{ expires_at: string }>('entitlements', 'refresh');
    expect(v).toMatchObject({
      entitled: true,
      status: 'valid',
      entitlements: ['nexus.orchestration'],
      subject: 'acct_svc',
      source: 'account',
      refreshed_at: expect.any(String),
      account: { configured: true, last_refresh: { ok: true } },
    });
    expect(svc.hits.at(-1)).toEqual({ path: '/v1/entitlements', authorization: `Bearer ${CREDENTIAL}` });
    const text = await s.nexus('entitlements', 'refresh');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/Refreshed from the account service\.[\s\S]*from: the account service at http:\/\/127\.0\.0\.1:\d+, refreshed /);
    // A token from another key afterwards: refused, the account's token stays.
    svc.answer = tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(7200) }, generateKeyPairSync('ed25519').privateKey));
    expect(JSON.parse((await s.nexus('entitlements', 'refresh', '--json')).out)).toMatchObject({
      error: { code: 'entitlement_invalid', message: expect.stringMatching(/signature does not verify/) },
    });
    expect(await s.json('entitlements', 'show')).toMatchObject({
      entitled: true,
      source: 'account',
      expires_at: v.expires_at,
      refreshed_at: expect.any(String),
    });
    // The credential is in no file of the data dir.
    for (const f of readdirSync(s.dir).filter((n) => n.startsWith('nexus.db')))
      expect(readFileSync(join(s.dir, f)).toString('latin1')).not.toContain(CREDENTIAL);
  });

  it('usage: refresh takes no argument', async () => {
    const r = await s.nexus('entitlements', 'refresh', 'extra');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/usage: nexus entitlements import FILE \| show \| refresh/);
  });
});
