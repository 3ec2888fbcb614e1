import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { ApiFailure } from '../api/dispatch.js';
import { gateEntitlement, importEntitlement, loadEntitlementKey, reverifyStoredEntitlement, showEntitlement, PUBLIC_KEY_ENV } from './entitlements.js';
import { governanceOnlyDb } from '../../test/support/governance-db.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const pair = () => generateKeyPairSync('ed25519');
const pem = (k: KeyObject) => k.export({ type: 'spki', format: 'pem' }).toString();
const sign = (priv: KeyObject, claims: Record<string, unknown>, alg = 'EdDSA') =>
  new SignJWT(claims).setProtectedHeader({ alg }).setSubject('acct_1').sign(priv);

const account = pair();
const env = { [PUBLIC_KEY_ENV]: pem(account.publicKey) };
const key = loadEntitlementKey(env);
const inAnHour = Math.floor(NOW / 1000) + 3600;
let dbs: ReturnType<typeof governanceOnlyDb>[] = [];
const db = () => {
  const d = governanceOnlyDb();
  dbs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dbs) d.close();
  dbs = [];
});

const refused = async (p: Promise<unknown>, re: RegExp) => {
  const e = await p.then(
    () => null,
    (x) => x,
  );
  expect(e).toBeInstanceOf(ApiFailure);
  expect((e as ApiFailure).code).toBe('entitlement_invalid');
  expect((e as ApiFailure).message).toMatch(re);
};

describe('entitlement nexus.orchestration (EdDSA JWT from the account service)', () => {
  it('valid: a token signed by the account key carrying ent nexus.orchestration entitles', async () => {
    const d = db();
    const v = await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration', 'nexus.other'], exp: inAnHour }), key, NOW);
    expect(v).toMatchObject({ entitled: true, status: 'valid', subject: 'acct_1', entitlements: ['nexus.orchestration', 'nexus.other'] });
    expect(gateEntitlement(d, key.fingerprint, NOW)).toEqual({ entitled: true, status: 'valid' });
  });
  it('expired: expiry is honoured at every gate decision (an expired token is not entitled)', async () => {
    const d = db();
    await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour }), key, NOW);
    expect(gateEntitlement(d, key.fingerprint, NOW + 3599_000).entitled).toBe(true);
    expect(gateEntitlement(d, key.fingerprint, NOW + 3600_000)).toEqual({ entitled: false, status: 'expired' });
    expect(showEntitlement(d, key, NOW + 3601_000)).toMatchObject({ entitled: false, status: 'expired' });
  });
  it('an already-expired token is refused at import and the previous state kept', async () => {
    const d = db();
    await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour }), key, NOW);
    await refused(
      importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: Math.floor(NOW / 1000) - 10 }), key, NOW),
      /expired/,
    );
    expect(showEntitlement(d, key, NOW)).toMatchObject({ entitled: true, status: 'valid' });
  });
  it('bad signature: a token signed by another key is refused with a clear error; the previous state is kept', async () => {
    const d = db();
    await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour }), key, NOW);
    const forger = pair();
    await refused(
      importEntitlement(d, await sign(forger.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour * 2 }), key, NOW),
      /signature does not verify/,
    );
    // A tampered payload with the original signature is refused too.
    const good = await sign(account.privateKey, { ent: [], exp: inAnHour });
    const [h, , s] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ent: ['nexus.orchestration'], exp: inAnHour })).toString('base64url');
    await refused(importEntitlement(d, `${h}.${forgedPayload}.${s}`, key, NOW), /signature does not verify/);
    expect(showEntitlement(d, key, NOW)).toMatchObject({ entitled: true, expires_at: new Date(inAnHour * 1000).toISOString() });
  });
  it('wrong alg and malformed tokens are refused', async () => {
    const d = db();
    const hs = await new SignJWT({ ent: ['nexus.orchestration'], exp: inAnHour }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    await refused(importEntitlement(d, hs, key, NOW), /only EdDSA/);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ent: ['nexus.orchestration'], exp: inAnHour })).toString('base64url')}.`;
    await refused(importEntitlement(d, none, key, NOW), /only EdDSA|malformed/);
    await refused(importEntitlement(d, 'not a token', key, NOW), /malformed/);
    await refused(importEntitlement(d, 'a.b.c', key, NOW), /malformed/);
    expect(showEntitlement(d, key, NOW)).toMatchObject({ entitled: false, status: 'absent' });
  });
  it('missing ent: a valid token without nexus.orchestration does not entitle', async () => {
    const d = db();
    const v = await importEntitlement(d, await sign(account.privateKey, { exp: inAnHour }), key, NOW);
    expect(v).toMatchObject({ entitled: false, status: 'valid', entitlements: [] });
    expect(gateEntitlement(d, key.fingerprint, NOW)).toEqual({ entitled: false, status: 'missing_ent' });
    await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.other'], exp: inAnHour }), key, NOW);
    expect(gateEntitlement(d, key.fingerprint, NOW).entitled).toBe(false);
    await refused(importEntitlement(d, await sign(account.privateKey, { ent: 'nexus.orchestration', exp: inAnHour }), key, NOW), /array of strings/);
  });
  it('a token without exp is refused', async () => {
    await refused(importEntitlement(db(), await sign(account.privateKey, { ent: ['nexus.orchestration'] }), key, NOW), /exp/);
  });
  it('env override: NEXUS_ENTITLEMENT_PUBLIC_KEY replaces the account service key; the default key refuses test tokens', async () => {
    expect(key.source).toBe('env');
    const def = loadEntitlementKey({});
    expect(def.source).toBe('default');
    expect(def.fingerprint).not.toBe(key.fingerprint);
    await refused(importEntitlement(db(), await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour }), def, NOW), /signature/);
    expect(() => loadEntitlementKey({ [PUBLIC_KEY_ENV]: 'garbage' })).toThrow(/PEM/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => loadEntitlementKey({ [PUBLIC_KEY_ENV]: pem(rsa.publicKey) })).toThrow(/Ed25519/);
  });
  it('a key change at start: a stored token that does not verify under the new key is not entitled', async () => {
    const d = db();
    await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour }), key, NOW);
    const other = loadEntitlementKey({ [PUBLIC_KEY_ENV]: pem(pair().publicKey) });
    await reverifyStoredEntitlement(d, other, NOW);
    expect(gateEntitlement(d, other.fingerprint, NOW)).toEqual({ entitled: false, status: 'invalid' });
    // Back to the key that signed it: verified again.
    await reverifyStoredEntitlement(d, key, NOW);
    expect(gateEntitlement(d, key.fingerprint, NOW).entitled).toBe(true);
  });
  it('a start without NEXUS_ENTITLEMENT_PUBLIC_KEY that turns a self-signed token invalid says so, and how to fix it', async () => {
    const d = db();
    await importEntitlement(d, await sign(account.privateKey, { ent: ['nexus.orchestration'], exp: inAnHour }), key, NOW);
    const def = loadEntitlementKey({});
    const said = await reverifyStoredEntitlement(d, def, NOW);
    expect(said).toBe(
      `the stored entitlement (acct_1) no longer verifies: it was verified under another key, and this start has no ${PUBLIC_KEY_ENV}. If you signed it yourself, start NEXUS with the same ${PUBLIC_KEY_ENV}; otherwise import a token from your account. Until then chains are denied orchestration_not_entitled.`,
    );
    expect(showEntitlement(d, def, NOW)).toMatchObject({ status: 'invalid', message: expect.stringContaining(`start NEXUS with the same ${PUBLIC_KEY_ENV}`) });
    // Started again with the same key: nothing to say, and valid again.
    expect(await reverifyStoredEntitlement(d, key, NOW)).toBeNull();
    expect(await reverifyStoredEntitlement(d, key, NOW)).toBeNull();
    expect(showEntitlement(d, key, NOW).status).toBe('valid');
  });
});
