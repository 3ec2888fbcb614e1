import { describe, expect, it } from 'vitest';
import { canonicalIp, classifyIp, parseIPv4, parseIPv6 } from './ip.js';

describe('classifyIp: where an address leads', () => {
  const table: Array<[string, ReturnType<typeof classifyIp>]> = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:169.254.169.254', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'reserved'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['4000::1', 'reserved'],
    ['localhost', null],
    ['127.1', null],
    ['0x7f.0.0.1', null],
    ['2130706433', null],
    ['fe80::1%eth0', null],
  ];
  it.each(table)('%s is %s', (ip, cls) => expect(classifyIp(ip)).toBe(cls));
});

describe('canonicalIp: one spelling per address', () => {
  const table: Array<[string, string | null]> = [
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:7F00:0001', '127.0.0.1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['0000::0001', '::1'],
    ['::', '::'],
    ['FE80:0:0:0:0:0:0:1', 'fe80::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0001:0000:0000:0000:0001', '2001:db8:0:1::1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1:0:3:4:5:6:7:8', '1:0:3:4:5:6:7:8'],
    ['127.000.0.1', null],
    ['010.0.0.1', null],
    ['127.0.0.1.', null],
    ['256.0.0.1', null],
    ['1.2.3', null],
    [' 1.2.3.4', null],
    ['1.2.3.4\0', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['1::2::3', null],
    [':::1', null],
    ['1:', null],
    ['12345::1', null],
    ['1.2.3.4::', null],
    ['::1.2.3.4:5', null],
    ['[::1]', null],
    ['', null],
  ];
  it.each(table)('%j is %j', (s, c) => expect(canonicalIp(s)).toBe(c));
});

describe('parsers: whole values', () => {
  it('bytes of each family', () => {
    expect(parseIPv4('169.254.169.254')).toEqual([169, 254, 169, 254]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIPv6('fe80::1')).toEqual([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });
});
