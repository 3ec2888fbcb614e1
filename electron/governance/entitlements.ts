// The nexus.orchestration entitlement (DESIGN §3): an EdDSA (Ed25519) JWT from the account service whose
// claims carry `ent: [...]` and `exp`. Verified with `jose` against the account service's public key (the
// default below, or NEXUS_ENTITLEMENT_PUBLIC_KEY at start). Stored only once verified; a bad token is
// refused and the previous state kept. Expiry is checked at every gate decision, against the store.
// No setting can change any of this: the only writer is `importEntitlement`, called by `nexus entitlements
// import FILE` (source "import") and by the account refresh (account.ts, source "account") — one code path.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { Db } from '../store/db.js';
import { gateEntitlementRow, getEntitlement, rekeyEntitlement, upsertEntitlement, type EntitlementSource } from '../store/queries/entitlement.js';
import { ApiFailure } from '../../shared/errors.js';
import { ENTITLEMENT_NAME } from '../../shared/orchestration/codes.js';
import type { GateEntitlement } from '../../shared/orchestration/gate.js';

/** The account service's public key (Ed25519, SPKI PEM). Self-hosters and tests override it at start. */
export const ACCOUNT_SERVICE_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAMvWuJOVCJ0Ic9LqJC/YlTBDg6ra0Bc06TUMCHLhJOiA=
-----END PUBLIC KEY-----
`;
export const PUBLIC_KEY_ENV = 'NEXUS_ENTITLEMENT_PUBLIC_KEY';

export interface EntitlementKey {
  key: KeyObject;
  /** sha256 of the SPKI DER, hex: which key verified a stored token. */
  fingerprint: string;
  source: 'default' | 'env';
}

/** The verification key: NEXUS_ENTITLEMENT_PUBLIC_KEY (PEM) when set, else the account service's. */
export function loadEntitlementKey(env: NodeJS.ProcessEnv = process.env): EntitlementKey {
  const fromEnv = env[PUBLIC_KEY_ENV];
  const pem = fromEnv && fromEnv.trim() ? fromEnv.replace(/\\n/g, '\n') : ACCOUNT_SERVICE_PUBLIC_KEY_PEM;
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (e) {
    throw new Error(`${PUBLIC_KEY_ENV} is not a PEM public key: ${(e as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${PUBLIC_KEY_ENV} must be an Ed25519 public key (got ${key.asymmetricKeyType ?? 'unknown'}).`);
  const der = key.export({ type: 'spki', format: 'der' });
  return { key, fingerprint: createHash('sha256').update(der).digest('hex'), source: fromEnv && fromEnv.trim() ? 'env' : 'default' };
}

export interface VerifiedClaims {
  ent: string[];
  exp: number;
  sub: string | null;
}

/** Verify a token's signature, algorithm and claims; throws ApiFailure('entitlement_invalid') with why. */
export async function verifyEntitlementToken(token: string, key: EntitlementKey, nowMs: number): Promise<VerifiedClaims> {
  const t = token.trim();
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(t).alg;
  } catch {
    throw invalid('The entitlement token is malformed: it is not a signed JWT (header.payload.signature).');
  }
  if (t.split('.').length !== 3) throw invalid('The entitlement token is malformed: it is not a signed JWT (header.payload.signature).');
  if (alg !== 'EdDSA' && alg !== 'Ed25519') {
    throw invalid(`The entitlement token is signed with ${JSON.stringify(alg)}; only EdDSA (Ed25519) tokens from the account service are accepted.`);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(t, key.key, { algorithms: ['EdDSA', 'Ed25519'], currentDate: new Date(nowMs), requiredClaims: ['exp'] }));
  } catch (e) {
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw invalid("The entitlement token's signature does not verify against the account service's public key.");
    }
    if (e instanceof joseErrors.JWTExpired)
      throw invalid(`The entitlement token has already expired (${expText(e.payload.exp)}); get a fresh one from the account service.`);
    if (e instanceof joseErrors.JWTClaimValidationFailed) throw invalid(`The entitlement token's claims are not valid: ${e.message}.`);
    if (e instanceof joseErrors.JOSEAlgNotAllowed) throw invalid('The entitlement token is not signed with EdDSA (Ed25519).');
    throw invalid(`The entitlement token is malformed: ${(e as Error).message}.`);
  }
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) throw invalid('The entitlement token has no valid exp claim.');
  // A date must be showable and comparable: exp past the year 9999 (e.g. 1e300) is refused, never stored.
  if (payload.exp > MAX_EXP_S) throw invalid(`The entitlement token's exp claim (${payload.exp}) is not a date before the year 10000; refused.`);
  const ent = payload.ent === undefined ? [] : payload.ent;
  if (!Array.isArray(ent) || !ent.every((x) => typeof x === 'string')) throw invalid('The entitlement token\'s "ent" claim must be an array of strings.');
  return { ent: ent as string[], exp: payload.exp, sub: typeof payload.sub === 'string' ? payload.sub : null };
}

/** The last second of the year 9999: the latest expiry a token may carry. */
const MAX_EXP_S = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;
const invalid = (m: string) => new ApiFailure('entitlement_invalid', m);
const expText = (exp: unknown) => (typeof exp === 'number' ? new Date(exp * 1000).toISOString() : 'unknown time');

/** Verify then store (replacing the previous token). A token that fails verification changes nothing. */
export async function importEntitlement(
  db: Db,
  token: string,
  key: EntitlementKey,
  nowMs: number,
  source: EntitlementSource = 'import',
): Promise<EntitlementView> {
  if (token.length > 65536) throw invalid('The entitlement token is too large.');
  const c = await verifyEntitlementToken(token, key, nowMs);
  storeEntitlement(db, token, c, key, nowMs, source);
  return showEntitlement(db, key, nowMs);
}

/** Store a token that verifyEntitlementToken has just verified (synchronous: nothing runs in between). */
export function storeEntitlement(db: Db, token: string, c: VerifiedClaims, key: EntitlementKey, nowMs: number, source: EntitlementSource): void {
  upsertEntitlement(db, { token: token.trim(), subject: c.sub, ent: c.ent, exp: c.exp, key_fingerprint: key.fingerprint, imported_at: nowMs, source });
}

export type { EntitlementSource } from '../store/queries/entitlement.js';

/**
 * At start: a token verified under another key (the key changed: NEXUS_ENTITLEMENT_PUBLIC_KEY) is verified
 * again under the current one; if it does not verify, it stays stored but counts as invalid at the gate, and
 * the sentence returned says so (the kernel writes it to its log: a start that turns it invalid is never silent).
 */
export async function reverifyStoredEntitlement(db: Db, key: EntitlementKey, nowMs: number): Promise<string | null> {
  const r = getEntitlement(db);
  if (!r || r.key_fingerprint === key.fingerprint) return null;
  try {
    await verifyEntitlementToken(r.token, key, nowMs);
    rekeyEntitlement(db, key.fingerprint);
    return null;
  } catch (e) {
    // Verified for an expired token also fails here; it stays expired either way. Anything else is invalid.
    if (e instanceof ApiFailure && /already expired/.test(e.message)) {
      rekeyEntitlement(db, key.fingerprint);
      return null;
    }
    return `the stored entitlement${r.subject ? ` (${r.subject})` : ''} no longer verifies: ${keyHint(key, r.source)} Until then chains are denied orchestration_not_entitled.`;
  }
}

/** Why a stored token does not verify under this start's key, and what to do. */
function keyHint(key: EntitlementKey, source: EntitlementSource): string {
  if (key.source === 'default' && source === 'import')
    return `it was verified under another key, and this start has no ${PUBLIC_KEY_ENV}. If you signed it yourself, start NEXUS with the same ${PUBLIC_KEY_ENV}; otherwise import a token from your account.`;
  if (key.source === 'env')
    return `this start's ${PUBLIC_KEY_ENV} is not the key it was verified under. Start with that key, or import a token signed by this one.`;
  return 'the key that verifies entitlements changed. Refresh it from your account, or import a fresh token.';
}

// Whether a stored ent claim carries the entitlement, memoized by the stored text (the row is still read
// from the store at every decision).
const carriesMemo = new Map<string, boolean>();
function carries(entJson: string): boolean {
  let v = carriesMemo.get(entJson);
  if (v === undefined) {
    v = (JSON.parse(entJson) as string[]).includes(ENTITLEMENT_NAME);
    if (carriesMemo.size > 64) carriesMemo.clear();
    carriesMemo.set(entJson, v);
  }
  return v;
}

/** What the gate reads, as the store holds it now, expiry judged now. */
export function gateEntitlement(db: Db, keyFingerprint: string, nowMs: number): GateEntitlement {
  const r = gateEntitlementRow(db);
  if (!r) return { entitled: false, status: 'absent' };
  if (r.key_fingerprint !== keyFingerprint || !(r.exp <= MAX_EXP_S)) return { entitled: false, status: 'invalid' };
  if (r.exp * 1000 <= nowMs) return { entitled: false, status: 'expired' };
  if (!carries(r.ent_json)) return { entitled: false, status: 'missing_ent' };
  return { entitled: true, status: 'valid' };
}

export interface EntitlementView {
  entitled: boolean;
  entitlements: string[];
  subject: string | null;
  expires_at: string | null;
  status: 'absent' | 'valid' | 'expired' | 'invalid';
  message: string;
  /** Where the stored token came from; null when none is stored. */
  source: EntitlementSource | null;
  /** When the account service last supplied the stored token (ISO); null for an imported file or none. */
  refreshed_at: string | null;
  /** The account service link (account.ts); filled in by the service, absent-configured here. */
  account: AccountView;
}

export interface AccountView {
  configured: boolean;
  /** NEXUS_ACCOUNT_URL as shown to people (origin + path; never the credential). */
  url: string | null;
  /** Why NEXUS_ACCOUNT_URL / NEXUS_ACCOUNT_TOKEN cannot be used, when they are set but wrong. */
  problem: string | null;
  /** The last refresh attempt in this run of the app (start-up, periodic or asked for). */
  last_refresh: { at: string; ok: boolean; code: string | null; message: string | null } | null;
}

const NO_ACCOUNT: AccountView = { configured: false, url: null, problem: null, last_refresh: null };

export function showEntitlement(db: Db, key: EntitlementKey, nowMs: number, account: AccountView = NO_ACCOUNT): EntitlementView {
  const r = getEntitlement(db);
  const g = gateEntitlement(db, key.fingerprint, nowMs);
  if (!r) {
    return {
      entitled: false,
      entitlements: [],
      subject: null,
      expires_at: null,
      status: 'absent',
      message: `No entitlement yet: orchestration needs ${ENTITLEMENT_NAME}. Your NEXUS account grants it; or ask your administrator for an entitlement file and run \`nexus entitlements import FILE\`.`,
      source: null,
      refreshed_at: null,
      account,
    };
  }
  const base = {
    entitlements: JSON.parse(r.ent_json) as string[],
    subject: r.subject,
    expires_at: r.exp <= MAX_EXP_S ? new Date(r.exp * 1000).toISOString() : null, // a row stored by an older build
    source: r.source,
    refreshed_at: r.source === 'account' ? new Date(r.imported_at).toISOString() : null,
    account,
  };
  switch (g.status) {
    case 'valid':
      return { ...base, entitled: true, status: 'valid', message: `Entitled to ${ENTITLEMENT_NAME} until ${base.expires_at}.` };
    case 'missing_ent':
      return {
        ...base,
        entitled: false,
        status: 'valid',
        message: `The ${r.source === 'account' ? 'token from the account service' : 'imported token'} is valid but does not include ${ENTITLEMENT_NAME}.`,
      };
    case 'expired':
      return {
        ...base,
        entitled: false,
        status: 'expired',
        message: `The entitlement expired at ${base.expires_at}; ${account.configured ? 'refresh it from your account' : 'import a fresh token'}.`,
      };
    default:
      if (base.expires_at === null)
        return {
          ...base,
          entitled: false,
          status: 'invalid',
          message: `The stored token's expiry is not a date before the year 10000; ${account.configured ? 'refresh it from your account' : 'import a fresh token'}.`,
        };
      return {
        ...base,
        entitled: false,
        status: 'invalid',
        message: `The stored token does not verify under this start's key: ${keyHint(key, r.source)}`,
      };
  }
}
