// An entitlement whose exp is not a date NEXUS can show (past the year 9999, e.g. 1e300) is refused at import
// and nothing is stored; the last valid second of 9999 is accepted.
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { importEntitlement, loadEntitlementKey, PUBLIC_KEY_ENV, showEntitlement } from './entitlements.js';
import { governanceOnlyDb } from '../../test/support/governance-db.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const account = generateKeyPairSync('ed25519');
const key = loadEntitlementKey({ [PUBLIC_KEY_ENV]: account.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
const sign = (exp: number) =>
  new SignJWT({ ent: ['nexus.orchestration'], exp }).setProtectedHeader({ alg: 'EdDSA' }).setSubject('acct_1').sign(account.privateKey);

describe('entitlement expiry range', () => {
  it('exp 1e300 is refused with a sentence and nothing is stored', async () => {
    const db = governanceOnlyDb();
    try {
      const e = await importEntitlement(db, await sign(1e300), key, NOW).then(
        () => null,
        (x: Error & { code?: string }) => x,
      );
      expect(e?.code).toBe('entitlement_invalid');
      expect(e?.message).toMatch(/exp claim \(1e\+300\) is not a date before the year 10000/);
      expect(showEntitlement(db, key, NOW)).toMatchObject({ status: 'absent', entitled: false });
    } finally {
      db.close();
    }
  });

  it('the last second of 9999 is a date: accepted and shown', async () => {
    const db = governanceOnlyDb();
    try {
      const v = await importEntitlement(db, await sign(Date.UTC(9999, 11, 31, 23, 59, 59) / 1000), key, NOW);
      expect(v).toMatchObject({ entitled: true, expires_at: '9999-12-31T23:59:59.000Z' });
    } finally {
      db.close();
    }
  });
});
