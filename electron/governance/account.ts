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
import { ACCOUNT_TOKEN_ENV, ACCOUNT_URL_ENV, DEFAULT_TIMEOUT_MS, fetchAccountToken, loadAccountConfig, type AccountConfig } from './account-request.js';

export const REFRESH_INTERVAL_MS = 6 * 3600_000;

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
