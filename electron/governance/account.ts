// The account service link (DESIGN §3: the entitlement comes "from the account service or from `nexus
// entitlements import FILE`"). Configured at start from the environment only:
//   NEXUS_ACCOUNT_URL    the service's base URL; https, or http on 127.0.0.1 / localhost / [::1] only
//   NEXUS_ACCOUNT_TOKEN  the account credential (a bearer token). Never stored, never logged, never echoed.
// The endpoint: GET {NEXUS_ACCOUNT_URL}/v1/entitlements with `Authorization: Bearer …`, answering
// `{ "token": "<EdDSA JWT>" }` (application/json) or the bare JWT (application/jwt). The token then crosses
// exactly the verification of an import (entitlements.ts: signature with the configured key, EdDSA only, exp,
// ent) and is stored with source "account". Any failure keeps the previous state and answers a code and a
// sentence. Refreshed once at start (non-blocking) and every 6 h on the kernel's Clock.
import type { Clock, TimerHandle } from '../kernel/clock.js';
import type { Db } from '../store/db.js';
import { ApiFailure } from '../../shared/errors.js';
import { showEntitlement, storeEntitlement, verifyEntitlementToken, type AccountView, type EntitlementKey, type EntitlementView } from './entitlements.js';
import { log } from '../log.js';

export const ACCOUNT_URL_ENV = 'NEXUS_ACCOUNT_URL';
export const ACCOUNT_TOKEN_ENV = 'NEXUS_ACCOUNT_TOKEN';
export const ENTITLEMENTS_PATH = '/v1/entitlements';
export const REFRESH_INTERVAL_MS = 6 * 3600_000;
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

export interface AccountLinkDeps {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  db: Db;
  key: EntitlementKey;
  /** Something about the entitlement changed (stored, or a refresh attempt ended): the UI re-reads. */
  onChange(): void;
  log?(line: string): void;
}

/** One per app: the configuration, the last attempt, the periodic refresh and its timer. */
export class AccountLink {
  readonly config: AccountConfig;
  /** Per request; tests shorten it. */
  timeoutMs = DEFAULT_TIMEOUT_MS;
  private last: AccountView['last_refresh'] = null;
  private inflight: Promise<EntitlementView> | null = null;
  private timer: TimerHandle | null = null;
  private closed = false;
  private readonly abort = new AbortController();
  private readonly log: (line: string) => void;

  constructor(private readonly deps: AccountLinkDeps) {
    this.config = loadAccountConfig(deps.env);
    this.log = deps.log ?? ((line) => log.warn(line.replace(/^nexus: /, '')));
  }

  view(): AccountView {
    const c = this.config;
    return {
      configured: c.state === 'ok',
      url: c.state === 'none' ? null : c.shown,
      problem: c.state === 'invalid' ? c.problem : null,
      last_refresh: this.last,
    };
  }

  /** Fetch, verify (as an import does), store. Concurrent callers share one request. */
  refresh(): Promise<EntitlementView> {
    const c = this.config;
    if (c.state === 'none') {
      return Promise.reject(
        new ApiFailure(
          'account_not_configured',
          `No account service is configured: start NEXUS with ${ACCOUNT_URL_ENV} and ${ACCOUNT_TOKEN_ENV}, or ask your administrator for an entitlement file and run \`nexus entitlements import FILE\`.`,
        ),
      );
    }
    if (c.state === 'invalid') return Promise.reject(new ApiFailure('account_misconfigured', c.problem));
    if (this.closed) return Promise.reject(new ApiFailure('account_canceled', 'NEXUS is closing.'));
    this.inflight ??= this.attempt(c).finally(() => (this.inflight = null));
    return this.inflight;
  }

  private async attempt(c: Extract<AccountConfig, { state: 'ok' }>): Promise<EntitlementView> {
    try {
      const token = await fetchAccountToken(c, { timeoutMs: this.timeoutMs, signal: this.abort.signal });
      if (token.length > 65536) throw new ApiFailure('entitlement_invalid', 'The entitlement token is too large.');
      let claims;
      try {
        claims = await verifyEntitlementToken(token, this.deps.key, this.deps.clock.now());
      } catch (e) {
        if (e instanceof ApiFailure)
          throw new ApiFailure(e.code, `The account service at ${c.shown} sent a token NEXUS refused: ${e.message} The stored entitlement is kept.`);
        throw e;
      }
      if (this.closed) throw new ApiFailure('account_canceled', 'NEXUS is closing.');
      const now = this.deps.clock.now();
      storeEntitlement(this.deps.db, token, claims, this.deps.key, now, 'account');
      this.last = { at: new Date(now).toISOString(), ok: true, code: null, message: null };
      return showEntitlement(this.deps.db, this.deps.key, now, this.view());
    } catch (e) {
      const f =
        e instanceof ApiFailure
          ? e
          : new ApiFailure(
              'account_error',
              `The account refresh failed: ${String((e as Error)?.message ?? e)
                .split(c.credential)
                .join('[redacted]')}`,
            );
      if (!this.closed) this.last = { at: new Date(this.deps.clock.now()).toISOString(), ok: false, code: f.code, message: f.message };
      throw f;
    } finally {
      if (!this.closed) this.deps.onChange();
    }
  }

  /** At start: one refresh in the background (a failure logs one line, no secret), then every 6 h. */
  start(): void {
    if (this.config.state === 'invalid') this.log(`nexus: the account service is not used: ${this.config.problem}`);
    if (this.config.state !== 'ok') return;
    this.background('at start');
    this.schedule();
  }

  private background(when: string): void {
    this.refresh().then(
      (v) => this.log(`nexus: entitlement refreshed from the account service ${when} (${v.entitled ? 'entitled' : 'not entitled'}).`),
      (e: ApiFailure) => {
        if (!this.closed) this.log(`nexus: entitlement refresh ${when} failed (${e.code}): ${e.message}`);
      },
    );
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      this.schedule();
      this.background('(every 6 h)');
    }, REFRESH_INTERVAL_MS);
  }

  close(): void {
    this.closed = true;
    if (this.timer) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
  }
}
