import { describe, expect, it } from 'vitest';
import { accountText, localTime, messageText, pillText, refreshOutcome, sourceText, WHERE_TO_GET, type Entitlement } from './entitlement-text.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const base: Entitlement = {
  entitled: false,
  entitlements: [],
  subject: null,
  expires_at: null,
  status: 'absent',
  message: 'No entitlement yet.',
  source: null,
  refreshed_at: null,
  account: { configured: false, url: null, problem: null, last_refresh: null },
};
const fromAccount: Entitlement = {
  ...base,
  entitled: true,
  status: 'valid',
  entitlements: ['nexus.orchestration'],
  message: 'Entitled to nexus.orchestration until 2026-12-01T12:00:00.000Z.',
  source: 'account',
  refreshed_at: new Date(NOW - 5 * 60_000).toISOString(),
  account: {
    configured: true,
    url: 'https://accounts.example.com',
    problem: null,
    last_refresh: { at: new Date(NOW - 5 * 60_000).toISOString(), ok: true, code: null, message: null },
  },
};

describe('the entitlement in words (Settings ▸ Agents ▸ Orchestration)', () => {
  it('says plainly where to get it', () => {
    expect(WHERE_TO_GET).toBe('Your NEXUS account grants it; or ask your administrator for an entitlement file and run `nexus entitlements import FILE`.');
  });
  it('says where the stored token came from', () => {
    expect(sourceText(base, NOW)).toBe('No entitlement is stored yet.');
    expect(sourceText(fromAccount, NOW)).toBe('From your NEXUS account (https://accounts.example.com), refreshed 5 min ago.');
    expect(sourceText({ ...fromAccount, source: 'import', refreshed_at: null }, NOW)).toMatch(/imported with `nexus entitlements import`/);
  });
  it('says how the account link stands', () => {
    expect(accountText(base, NOW)).toMatch(/No account service is configured/);
    expect(accountText(fromAccount, NOW)).toBe('Account service: https://accounts.example.com. Last refresh 5 min ago succeeded.');
    const failed = {
      ...fromAccount,
      account: {
        ...fromAccount.account,
        last_refresh: {
          at: new Date(NOW - 30_000).toISOString(),
          ok: false,
          code: 'account_unauthorized',
          message: 'The account service at https://accounts.example.com answered 401: sign in again.',
        },
      },
    };
    expect(accountText(failed, NOW)).toBe(
      'Account service: https://accounts.example.com. Last refresh 30 s ago failed: The account service at https://accounts.example.com answered 401: sign in again.',
    );
    expect(accountText({ ...base, account: { ...base.account, problem: 'NEXUS_ACCOUNT_URL must use https.' } }, NOW)).toBe(
      'The account service is not used: NEXUS_ACCOUNT_URL must use https.',
    );
  });
  it('pill and refresh outcome', () => {
    expect(pillText(fromAccount)).toBe('Entitled');
    expect(pillText({ ...base, status: 'expired' })).toBe('Expired');
    expect(pillText(null)).toBe('Not entitled');
    expect(refreshOutcome({ ok: true, value: fromAccount })).toEqual({ ok: true, text: `Refreshed: ${fromAccount.message}` });
    expect(refreshOutcome({ ok: true, value: { ...fromAccount, entitled: false, message: 'no ent' } })).toEqual({
      ok: true,
      text: 'Refreshed, but not entitled: no ent',
    });
    expect(refreshOutcome({ ok: false, message: 'The account service at X answered 500.' })).toEqual({
      ok: false,
      text: 'Refresh failed: The account service at X answered 500.',
    });
  });
});

describe('messageText', () => {
  it('says the expiry in local time, with no raw ISO string left', () => {
    const iso = '2027-03-04T05:06:07.000Z';
    const text = messageText({ ...base, entitled: true, status: 'valid', expires_at: iso, message: `Entitled to nexus.orchestration until ${iso}.` });
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(text).toBe(`Entitled to nexus.orchestration until ${localTime(iso)}.`);
    expect(localTime(iso)).toMatch(/2027/);
  });
  it('leaves a message without a time as it is', () => {
    expect(messageText(base)).toBe('No entitlement yet.');
    expect(messageText(null)).toBe('');
  });
});
