import { describe, expect, it } from 'vitest';
import { normaliseHost, shown } from './destination.js';

describe('normaliseHost: the one form a requested host is matched in', () => {
  const table: Array<[string, string | null]> = [
    ['API.GitHub.com', 'api.github.com'],
    ['api.github.com.', 'api.github.com'],
    ['Bücher.example', 'xn--bcher-kva.example'],
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['127。0。0。1', '127.0.0.1'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['0:0::1', '::1'],
    ['127.0.0.1\0.allowed.invalid', null],
    ['127.0.0.1%00.allowed.invalid', null],
    ['127_0_0_1.allowed.invalid', null],
    ['a.allowed.invalid@127.0.0.1', null],
    ['a .allowed.invalid', null],
    ['a\u00a0.allowed.invalid', null],
    ['a\u200b.allowed.invalid', null],
    ['a\ufffd.allowed.invalid', null],
    ['a\t.allowed.invalid', null],
    ['a..b', null],
    ['a.b..', null],
    ['.', null],
    ['', null],
    ['fe80::1%eth0', null],
    ['a/b', null],
    ['a\\b', null],
  ];
  it.each(table)('%j → %j', (raw, host) => expect(normaliseHost(raw)).toBe(host));
  it('what is recorded escapes control bytes and beyond-ASCII text', () => {
    expect(shown('127.0.0.1\0.x\u0085\u200b\\')).toBe('127.0.0.1\\x00.x\\x85\\u200b\\\\');
    expect(shown('a'.repeat(300))).toBe(`${'a'.repeat(200)}…`);
  });
});
