import { describe, expect, it } from 'vitest';
import { NetworkHost } from '../api/agents.js';
import { isHostName, isNetworkRule, namedAddresses, ruleMatches } from './host.js';

describe('network.allow entries: the one grammar the profile and the proxy share', () => {
  const table: Array<[string, boolean]> = [
    ['api.github.com', true],
    ['*.github.com', true],
    ['localhost', true],
    ['xn--bcher-kva.de', true],
    ['a-b.c0', true],
    ['127.0.0.1', true],
    ['10.0.0.5', true],
    ['::1', true],
    ['fe80::1', true],
    ['', false],
    ['*', false],
    ['*.', false],
    ['**.github.com', false],
    ['a.*.github.com', false],
    ['127.0.0.1\0.allowed.invalid', false],
    ['bad_name.com', false],
    ['-a.com', false],
    ['a-.com', false],
    ['a..b', false],
    ['a.com.', false],
    ['a%00b.com', false],
    ['ex ample.com', false],
    ['bücher.de', false],
    ['127.1', false],
    ['0x7f.0.0.1', false],
    ['2130706433', false],
    ['*.0.0.1', false],
    ['1.2.3.4.5', false],
    ['[::1]', false],
    [`${'a'.repeat(64)}.com`, false],
    [`${'a'.repeat(63)}.com`, true],
    [Array.from({ length: 64 }, () => 'abc').join('.'), false],
  ];
  it.each(table)('%j valid: %s', (rule, ok) => {
    expect(isNetworkRule(rule)).toBe(ok);
    expect(NetworkHost.safeParse(rule).success).toBe(ok);
  });
  it('a host name is never an address', () => {
    expect(isHostName('127.0.0.1')).toBe(false);
    expect(isHostName('1e100.net')).toBe(true);
  });
});

describe('ruleMatches: a normalised host against one rule', () => {
  const table: Array<[string, string, boolean]> = [
    ['api.github.com', 'api.github.com', true],
    ['API.GitHub.com', 'api.github.com', true],
    ['api.github.com', 'evil-api.github.com', false],
    ['*.github.com', 'x.github.com', true],
    ['*.github.com', 'a.b.github.com', true],
    ['*.github.com', 'github.com', false],
    ['*.github.com', 'xgithub.com', false],
    ['127.0.0.1', '127.0.0.1', true],
    ['::ffff:127.0.0.1', '127.0.0.1', true],
    ['0:0::1', '::1', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['*.0.1', '127.0.0.1', false],
    ['localhost', '127.0.0.1', false],
  ];
  it.each(table)('%s ~ %s: %s', (rule, host, ok) => expect(ruleMatches(rule, host)).toBe(ok));
  it('named addresses are the rules that are addresses, canonical', () => {
    expect([...namedAddresses(['a.com', '127.0.0.1', '0::1', '::ffff:10.0.0.1', '*.b.com'])]).toEqual(['127.0.0.1', '::1', '10.0.0.1']);
  });
});
