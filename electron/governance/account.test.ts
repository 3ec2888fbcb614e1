// The entitlement taken from the account service (DESIGN §3), over real HTTP on 127.0.0.1, through the real
// kernel and SQLite: refresh, every failure keeping the previous state, start-up and periodic refresh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { createNexus, type Nexus } from '../app.js';
import { ManualClock } from '../kernel/clock.js';
import { dispatch } from '../api/dispatch.js';
import { captureLog } from '../log.js';
import { saveAgent } from '../agents/profiles.js';
import { addMember, beginChain, bindMemberRun } from '../store/queries/chains.js';
import { recipientPosition, starterPosition } from '../../shared/orchestration/chain.js';
import { PUBLIC_KEY_ENV } from './entitlements.js';
import { REFRESH_INTERVAL_MS } from './account.js';
import { ACCOUNT_TOKEN_ENV, ACCOUNT_URL_ENV, loadAccountConfig } from './account-request.js';
import { fakeAccountService, tokenAnswer, type FakeAccountService } from '../../test/support/account-service.js';
import { world } from '../../test/support/world.js';

const CREDENTIAL = 'acct-cred-7f3a9c1e5b2d4086-SECRET';
let w = world();
let restoreLog = () => {};
afterEach(async () => {
  await w.cleanup();
  w = world();
  restoreLog();
  restoreLog = () => {};
  vi.restoreAllMocks();
});

async function service(): Promise<FakeAccountService> {
  const s = await fakeAccountService();
  w.defer(() => s.close());
  return s;
}

async function app(svc: FakeAccountService, opts: { env?: NodeJS.ProcessEnv; clock?: ManualClock; dataDir?: string } = {}) {
  const clock = opts.clock ?? new ManualClock(Date.now());
  const dataDir = opts.dataDir ?? w.dir('acct');
  const env = { [PUBLIC_KEY_ENV]: svc.publicPem, [ACCOUNT_URL_ENV]: svc.url, [ACCOUNT_TOKEN_ENV]: CREDENTIAL, ...opts.env };
  const nexus = await createNexus({ dataDir, clock, env, modules: { governance: true } });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await nexus.close();
  };
  w.defer(close);
  const gov = nexus.governance!;
  const call = (method: string, input: unknown = {}) => dispatch(nexus.handlers, method, input, { door: 'internal' });
  return { nexus, gov, clock, dataDir, call, close };
}

const exp = (clock: ManualClock, s = 24 * 3600) => Math.floor(clock.now() / 1000) + s;
const until = async (what: string, f: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A governed hop (lead → mid, then mid acts) through the real kernel; returns its denial code or null. */
async function hopCode(nexus: Nexus): Promise<string | null> {
  const k = nexus.kernel;
  const gov = nexus.governance!;
  for (const name of ['lead', 'mid'])
    saveAgent(k, { name, model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }, mode: 'bypass' });
  const lead = k.createRun({ agent: 'lead', mode: 'bypass' });
  const now = k.clock.now();
  const chain_id = beginChain(gov.db, { starter: 'lead', starterRunId: lead.id, recipient: 'mid', now }).id;
  const handoff = `row_handoff_${Math.random().toString(16).slice(2)}`;
  addMember(gov.db, { handoff_row_id: handoff, chain_id, position: recipientPosition(starterPosition('lead'), 'mid'), now });
  const mid = k.createRun({ agent: 'mid', mode: 'bypass', chain_id, parent: { run_id: lead.id, row_id: handoff } });
  bindMemberRun(gov.db, handoff, mid.id);
  const row = await k.waitRow(k.submitRow(mid.id, { tool: 'bash', input: { command: 'true' }, origin: 'model' }).id);
  return (row.result?.structuredContent as { code?: string } | undefined)?.code ?? (row.state === 'succeeded' ? null : row.state);
}

const openLocalKey = async (a: Awaited<ReturnType<typeof app>>) => {
  await a.call('settingsSet', { key: 'orchestration.enabled', value: true });
  await a.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
  await a.call('settingsSet', { key: 'orchestration.perHopApproval', value: false });
};

/** Every byte of the data dir's SQLite files (db, WAL, SHM) as latin1 text. */
const storeBytes = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith('nexus.db'))
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('');

describe('entitlement from the account service (GET {NEXUS_ACCOUNT_URL}/v1/entitlements)', () => {
  it('refresh success: the token is verified and stored (source account), and the gate entitlement check passes on the next hop', async () => {
    const svc = await service();
    const a = await app(svc);
    await until('the start-up attempt', () => a.gov.account.view().last_refresh !== null); // 503 by default
    await openLocalKey(a);
    expect(await hopCode(a.nexus)).toBe('orchestration_not_entitled');
    svc.answer = tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(a.clock) }));
    const r = await a.call('entitlementsRefresh');
    expect(r).toMatchObject({
      ok: true,
      value: { entitled: true, status: 'valid', source: 'account', subject: 'acct_svc', account: { configured: true, url: svc.url } },
    });
    expect(r.ok && (r.value as { refreshed_at: string }).refreshed_at).toBe(new Date(a.clock.now()).toISOString());
    expect(svc.hits.at(-1)).toEqual({ path: '/v1/entitlements', authorization: `Bearer ${CREDENTIAL}` });
    expect(await hopCode(a.nexus)).toBe(null);
    const shown = await a.call('entitlementsShow');
    expect(shown).toMatchObject({ ok: true, value: { source: 'account', account: { last_refresh: { ok: true, code: null } } } });
  });

  it('an application/jwt body is accepted as well as JSON {token}', async () => {
    const svc = await service();
    const a = await app(svc);
    // Concurrent refreshes share one request: the start-up one (503 by default) must be over first.
    await until('the start-up attempt', () => a.gov.account.view().last_refresh !== null);
    const jwt = await svc.sign({ ent: ['nexus.orchestration'], exp: exp(a.clock) });
    svc.answer = (_q, res) => res.writeHead(200, { 'content-type': 'application/jwt' }).end(`${jwt}\n`);
    expect(await a.call('entitlementsRefresh')).toMatchObject({ ok: true, value: { entitled: true, source: 'account' } });
  });

  it('401, 500, garbage body, token signed by another key, expired token, timeout: the previous state is kept and the error says why', async () => {
    const svc = await service();
    const a = await app(svc);
    await until('the start-up attempt', () => a.gov.account.view().last_refresh !== null);
    a.gov.account.timeoutMs = 300;
    const good = await svc.sign({ ent: ['nexus.orchestration'], exp: exp(a.clock) });
    svc.answer = tokenAnswer(good);
    expect((await a.call('entitlementsRefresh')).ok).toBe(true);
    const before = await a.call('entitlementsShow');
    const other = generateKeyPairSync('ed25519').privateKey;
    const cases: Array<[string, FakeAccountService['answer'], string, RegExp]> = [
      // A service that echoes the credential back must not get it into the error.
      [
        '401',
        (q, res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `bad token ${q.headers.authorization}` })),
        'account_unauthorized',
        /^The account service at http:\/\/127\.0\.0\.1:\d+ answered 401: sign in again/,
      ],
      ['500', (_q, res) => res.writeHead(500).end('boom'), 'account_http_error', /answered 500 Internal Server Error\. The stored entitlement is kept/],
      [
        'garbage',
        (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json'),
        'account_bad_response',
        /not JSON|neither JSON/,
      ],
      ['no token', (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"tok":1}'), 'account_bad_response', /no "token" string/],
      [
        'other key',
        tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(a.clock, 99_999) }, other)),
        'entitlement_invalid',
        /sent a token NEXUS refused: .*signature does not verify/,
      ],
      ['expired', tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(a.clock, -60) })), 'entitlement_invalid', /already expired/],
      ['redirect', (_q, res) => res.writeHead(302, { location: 'http://127.0.0.1:9/' }).end(), 'account_http_error', /302 \(a redirect, not followed/],
      ['timeout', () => {}, 'account_timeout', /did not answer within 0\.3 s/],
    ];
    for (const [name, answer, code, message] of cases) {
      svc.answer = answer;
      const r = await a.call('entitlementsRefresh');
      expect(r.ok, name).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, name).toBe(code);
      expect(r.error.message, name).toMatch(message);
      expect(r.error.message, name).not.toContain(CREDENTIAL);
      const now = await a.call('entitlementsShow');
      expect(now.ok && now.value, name).toMatchObject({ ...(before.ok ? (before.value as object) : {}), account: { last_refresh: { ok: false, code } } });
    }
    expect(await hopCode(a.nexus)).not.toBe('orchestration_not_entitled');
    // The credential was sent, and is nowhere in the store's files.
    expect(svc.hits.every((h) => h.authorization === `Bearer ${CREDENTIAL}`)).toBe(true);
    await a.close();
    const bytes = storeBytes(a.dataDir);
    expect(bytes).toContain(good.split('.')[2]); // the entitlement token itself is stored
    expect(bytes).not.toContain(CREDENTIAL);
  });

  it('unreachable: nothing listens at NEXUS_ACCOUNT_URL', async () => {
    const svc = await service();
    const dead = await fakeAccountService();
    const url = dead.url;
    await dead.close();
    const a = await app(svc, { env: { [ACCOUNT_URL_ENV]: url } });
    const r = await a.call('entitlementsRefresh');
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'account_unreachable', message: expect.stringMatching(/Cannot reach the account service at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/) },
    });
  });

  it('not configured / misconfigured: refresh answers why; show says so; import still works', async () => {
    const svc = await service();
    const none = await app(svc, { env: { [ACCOUNT_URL_ENV]: '', [ACCOUNT_TOKEN_ENV]: '' } });
    expect(await none.call('entitlementsRefresh')).toMatchObject({
      ok: false,
      error: { code: 'account_not_configured', message: expect.stringContaining('nexus entitlements import FILE') },
    });
    expect(await none.call('entitlementsShow')).toMatchObject({
      ok: true,
      value: { source: null, refreshed_at: null, account: { configured: false, url: null } },
    });
    expect(await none.call('entitlementsImport', { token: await svc.sign({ ent: ['nexus.orchestration'], exp: exp(none.clock) }) })).toMatchObject({
      ok: true,
      value: { entitled: true, source: 'import', refreshed_at: null },
    });
    restoreLog = captureLog().restore;
    const http = await app(svc, { env: { [ACCOUNT_URL_ENV]: 'http://accounts.example.com' } });
    expect(await http.call('entitlementsRefresh')).toMatchObject({
      ok: false,
      error: { code: 'account_misconfigured', message: expect.stringMatching(/must use https/) },
    });
    expect(svc.hits).toHaveLength(0);
  });

  it('configuration: https anywhere, http only on loopback, no credentials in the URL, a token required', () => {
    const cfg = (url: string, token: string | undefined = 'tok') => loadAccountConfig({ [ACCOUNT_URL_ENV]: url, [ACCOUNT_TOKEN_ENV]: token });
    expect(cfg('https://accounts.example.com/api/')).toMatchObject({ state: 'ok', shown: 'https://accounts.example.com/api' });
    expect((cfg('https://accounts.example.com/api/') as { endpoint: URL }).endpoint.href).toBe('https://accounts.example.com/api/v1/entitlements');
    for (const u of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:2']) expect(cfg(u).state, u).toBe('ok');
    expect(cfg('http://10.0.0.1')).toMatchObject({ state: 'invalid', problem: expect.stringMatching(/https/) });
    expect(cfg('https://u:p@accounts.example.com')).toMatchObject({ state: 'invalid', problem: expect.stringMatching(/user or password/) });
    expect(cfg('https://accounts.example.com', '')).toMatchObject({ state: 'invalid', problem: expect.stringMatching(/NEXUS_ACCOUNT_TOKEN/) });
    expect(cfg('https://accounts.example.com', 'two words')).toMatchObject({ state: 'invalid' });
    expect(cfg('not a url')).toMatchObject({ state: 'invalid' });
    expect(loadAccountConfig({})).toEqual({ state: 'none' });
  });

  it('start-up refresh: a configured app takes the token at start without waiting for it; a failure keeps the stored token and logs one line without secrets', async () => {
    const svc = await service();
    const clock = new ManualClock(Date.now());
    svc.answer = tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(clock) }));
    const dataDir = w.dir('acct');
    const first = await app(svc, { clock, dataDir });
    await until('the start-up refresh', () => first.gov.showEntitlement().entitled);
    expect(first.gov.showEntitlement().source).toBe('account');
    await first.close();

    const captured = captureLog();
    restoreLog = captured.restore;
    svc.answer = (q, res) => res.writeHead(401).end(`nope ${q.headers.authorization}`);
    const second = await app(svc, { clock, dataDir });
    await until('the failed start-up refresh', () => second.gov.account.view().last_refresh?.ok === false);
    expect(second.gov.showEntitlement()).toMatchObject({ entitled: true, source: 'account' });
    const logged = captured.lines.map((l) => l.line).filter((l) => /refresh/.test(l));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/at start failed \(account_unauthorized\)/);
    expect(logged[0]).not.toContain(CREDENTIAL);
  });

  it('start-up refresh does not hold up the start: a silent service leaves the app running on the stored state; close aborts the request', async () => {
    const svc = await service();
    svc.answer = () => {}; // never answers (the default 10 s timeout would apply)
    const captured = captureLog();
    restoreLog = captured.restore;
    const a = await app(svc);
    await until('the start-up request', () => svc.hits.length === 1);
    expect(a.gov.account.view()).toMatchObject({ configured: true, last_refresh: null });
    expect((await a.call('entitlementsShow')).ok).toBe(true);
    await a.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(captured.lines.filter((l) => /refresh/.test(l.line))).toEqual([]);
  });

  it('periodic refresh: every 6 hours on the kernel clock, and none after close', async () => {
    const svc = await service();
    const clock = new ManualClock(Date.now());
    svc.answer = tokenAnswer(await svc.sign({ ent: [], exp: exp(clock, 48 * 3600) }));
    const a = await app(svc, { clock });
    await until('the start-up refresh', () => svc.hits.length === 1 && a.gov.account.view().last_refresh !== null);
    expect(a.gov.showEntitlement()).toMatchObject({ entitled: false, source: 'account' });
    // The account now grants orchestration; nothing asks before 6 h.
    svc.answer = tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: exp(clock, 48 * 3600) }));
    clock.advance(REFRESH_INTERVAL_MS - 1000);
    await new Promise((r) => setTimeout(r, 50));
    expect(svc.hits).toHaveLength(1);
    clock.advance(1000);
    await until('the 6 h refresh', () => a.gov.showEntitlement().entitled);
    expect(a.gov.showEntitlement().refreshed_at).toBe(new Date(clock.now()).toISOString());
    clock.advance(REFRESH_INTERVAL_MS);
    await until('the 12 h refresh', () => svc.hits.length === 3);
    await a.close();
    clock.advance(REFRESH_INTERVAL_MS);
    await new Promise((r) => setTimeout(r, 50));
    expect(svc.hits).toHaveLength(3);
  });
});
