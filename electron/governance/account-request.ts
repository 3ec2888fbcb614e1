// The account service's configuration (NEXUS_ACCOUNT_URL / NEXUS_ACCOUNT_TOKEN, read once at start) and its one
// request: GET {URL}/v1/entitlements with the credential as a bearer token, the answer read within a size cap,
// and every failure a code and a sentence with the credential redacted. account.ts verifies and stores.
import { ApiFailure } from '../../shared/errors.js';

export const ACCOUNT_URL_ENV = 'NEXUS_ACCOUNT_URL';
export const ACCOUNT_TOKEN_ENV = 'NEXUS_ACCOUNT_TOKEN';
export const ENTITLEMENTS_PATH = '/v1/entitlements';
export const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 128 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type AccountConfig =
  { state: 'none' } | { state: 'invalid'; problem: string; shown: string | null } | { state: 'ok'; endpoint: URL; shown: string; credential: string };

/** Read NEXUS_ACCOUNT_URL / NEXUS_ACCOUNT_TOKEN. Unset URL: no account. Set but unusable: why, in words. */
export function loadAccountConfig(env: NodeJS.ProcessEnv): AccountConfig {
  const raw = env[ACCOUNT_URL_ENV]?.trim();
  if (!raw) return { state: 'none' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { state: 'invalid', problem: `${ACCOUNT_URL_ENV} is not a URL; set it to the account service's base address (https://…).`, shown: null };
  }
  const shown = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  if (url.username || url.password) {
    return { state: 'invalid', problem: `${ACCOUNT_URL_ENV} must not carry a user or password; put the account credential in ${ACCOUNT_TOKEN_ENV}.`, shown };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return {
      state: 'invalid',
      problem: `${ACCOUNT_URL_ENV} must use https (plain http is allowed only for 127.0.0.1, localhost and [::1]); got ${url.protocol}//${url.host}.`,
      shown,
    };
  }
  const credential = env[ACCOUNT_TOKEN_ENV]?.trim() ?? '';
  if (!credential)
    return {
      state: 'invalid',
      problem: `${ACCOUNT_URL_ENV} is set but ${ACCOUNT_TOKEN_ENV} (the account credential) is not; sign in to get one and restart NEXUS with it.`,
      shown,
    };
  if (credential.length > 8192 || /[\s\x00-\x1f\x7f]/.test(credential)) {
    return { state: 'invalid', problem: `${ACCOUNT_TOKEN_ENV} is not a bearer token (it is too long or holds spaces or control characters).`, shown };
  }
  const endpoint = new URL(url.href);
  endpoint.pathname = `${url.pathname.replace(/\/+$/, '')}${ENTITLEMENTS_PATH}`;
  endpoint.search = '';
  endpoint.hash = '';
  return { state: 'ok', endpoint, shown, credential };
}

/** Fetch the entitlement token (not yet verified). Throws ApiFailure with a code and a sentence, no secret. */
export async function fetchAccountToken(
  cfg: Extract<AccountConfig, { state: 'ok' }>,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  const at = `The account service at ${cfg.shown}`;
  const kept = 'The stored entitlement is kept.';
  const redact = (s: string) => s.split(cfg.credential).join('[redacted]');
  const aborted = (e: unknown): ApiFailure => {
    if (opts.signal?.aborted) return new ApiFailure('account_canceled', `${at} was not asked: NEXUS is closing.`);
    if (timeout.aborted) return new ApiFailure('account_timeout', `${at} did not answer within ${timeoutMs / 1000} s. ${kept} Try again later.`);
    const c = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = redact(String(c?.code ?? c?.message ?? (e as Error).message ?? e));
    return new ApiFailure(
      'account_unreachable',
      `Cannot reach the account service at ${cfg.shown} (${why}); check ${ACCOUNT_URL_ENV} and the network. ${kept}`,
    );
  };
  let res: Response;
  try {
    res = await fetch(cfg.endpoint, {
      method: 'GET',
      headers: { authorization: `Bearer ${cfg.credential}`, accept: 'application/json, application/jwt' },
      // Never follow: the credential goes only to NEXUS_ACCOUNT_URL (no downgrade, no other host).
      redirect: 'manual',
      signal,
    });
  } catch (e) {
    throw aborted(e);
  }
  let body: string;
  try {
    body = await readCapped(res, MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof ApiFailure) throw new ApiFailure('account_bad_response', `${at} answered with a body over ${MAX_BODY_BYTES / 1024} KiB. ${kept}`);
    throw aborted(e);
  }
  if (res.status === 401)
    throw new ApiFailure('account_unauthorized', `${at} answered 401: sign in again (start NEXUS with a fresh ${ACCOUNT_TOKEN_ENV}). ${kept}`);
  if (res.status === 403)
    throw new ApiFailure('account_forbidden', `${at} answered 403: this account may not fetch entitlements; ask your administrator. ${kept}`);
  if (res.status >= 300 && res.status < 400) {
    throw new ApiFailure(
      'account_http_error',
      `${at} answered ${res.status} (a redirect, not followed: the credential goes only to ${ACCOUNT_URL_ENV}); set ${ACCOUNT_URL_ENV} to the service's own address. ${kept}`,
    );
  }
  if (res.status !== 200) {
    const said = serviceSaid(body, redact);
    throw new ApiFailure(
      'account_http_error',
      `${at} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${said ? ` ("${said}")` : ''}. ${kept} Try again later.`,
    );
  }
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('application/jwt')) return body.trim();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ApiFailure('account_bad_response', `${at} answered 200 with a body that is neither JSON {"token": …} nor an application/jwt token. ${kept}`);
  }
  const token = (json as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || !token.trim())
    throw new ApiFailure('account_bad_response', `${at} answered 200 with JSON that has no "token" string. ${kept}`);
  return token.trim();
}

async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new ApiFailure('too_large', 'body too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A short, redacted `error`/`message` from an error body, for the sentence; never the raw body. */
function serviceSaid(body: string, redact: (s: string) => string): string | null {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const m = [j.message, j.error, (j.error as Record<string, unknown> | undefined)?.message].find((x) => typeof x === 'string') as string | undefined;
    return m ? redact(m).replace(/\s+/g, ' ').slice(0, 200) : null;
  } catch {
    return null;
  }
}
