// IP addresses as the sandbox's proxy judges them: parsed strictly, written one way, and classed by where
// they lead. IPv4 is only the canonical dotted quad (no octal, hex or shortened forms: resolvers read those
// differently from a person); IPv6 is RFC 4291 text without a zone. An IPv4-mapped IPv6 address is the IPv4
// address it carries, and NAT64 and 6to4 addresses are judged by the IPv4 address inside them.

/** Where an address leads; only `public` is reachable without a rule naming the address. */
export type IpClass = 'public' | 'unspecified' | 'loopback' | 'link-local' | 'private' | 'multicast' | 'broadcast' | 'reserved';

const OCTET = /^(0|[1-9][0-9]{0,2})$/;

/** The four bytes of a canonical dotted quad, or null. */
export function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/** The sixteen bytes of an IPv6 address (with an optional dotted-quad tail), or null. */
export function parseIPv6(s: string): number[] | null {
  if (s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    const parts = h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(p)) out.push(parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  // A dotted quad may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const all = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

const startsWith = (b: readonly number[], prefix: readonly number[], bits: number): boolean => {
  for (let i = 0; i < bits; i++) {
    const m = 0x80 >> (i % 8);
    if ((b[i >> 3]! & m) !== (prefix[i >> 3]! & m)) return false;
  }
  return true;
};

type Range = [prefix: number[], bits: number, cls: IpClass];
const V4: Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'private'], // carrier-grade NAT
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'], // cloud metadata services live here
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 0, 2, 0], 24, 'reserved'],
  [[192, 88, 99, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'],
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];
const v6 = (groups: number[]) => groups.flatMap((g) => [g >> 8, g & 0xff]).concat(new Array<number>(16 - groups.length * 2).fill(0));
const V6: Range[] = [
  [v6([]), 128, 'unspecified'],
  [v6([0, 0, 0, 0, 0, 0, 0, 1]), 128, 'loopback'],
  [v6([]), 96, 'reserved'], // IPv4-compatible, deprecated
  [v6([0x64, 0xff9b, 1]), 48, 'private'], // local-use NAT64
  [v6([0x100]), 64, 'reserved'], // discard-only
  [v6([0x2001, 0xdb8]), 32, 'reserved'], // documentation
  [v6([0xfc00]), 7, 'private'], // unique local
  [v6([0xfe80]), 10, 'link-local'],
  [v6([0xfec0]), 10, 'private'], // site-local, deprecated
  [v6([0xff00]), 8, 'multicast'],
];
/** Prefixes whose addresses carry an IPv4 address, with where it sits. */
const EMBEDS: Array<[prefix: number[], bits: number, at: number]> = [
  [v6([0, 0, 0, 0, 0, 0xffff]), 96, 12], // IPv4-mapped
  [v6([0x64, 0xff9b]), 96, 12], // NAT64
  [v6([0x2002]), 16, 2], // 6to4
];

const classOf = (b: number[], table: Range[]): IpClass | null => table.find(([p, bits]) => startsWith(b, p, bits))?.[2] ?? null;

function classify6(b: number[]): IpClass {
  const embed = EMBEDS.find(([p, bits]) => startsWith(b, p, bits));
  if (embed) return classOf(b.slice(embed[2], embed[2] + 4), V4) ?? 'public';
  const cls = classOf(b, V6);
  if (cls) return cls;
  // Only 2000::/3 is global unicast; the rest is unassigned.
  return startsWith(b, v6([0x2000]), 3) ? 'public' : 'reserved';
}

/** Is `s` an IP address as NEXUS accepts one (canonical dotted quad, or IPv6 text)? */
export const isIp = (s: string): boolean => parseIPv4(s) !== null || parseIPv6(s) !== null;

/** The one way NEXUS writes an address: a dotted quad (IPv4-mapped too), or RFC 5952 IPv6; null if not one. */
export function canonicalIp(s: string): string | null {
  const b4 = parseIPv4(s);
  if (b4) return b4.join('.');
  const b = parseIPv6(s);
  if (!b) return null;
  if (startsWith(b, EMBEDS[0]![0], 96)) return b.slice(12).join('.');
  const g = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  // The longest run of two or more zero groups (the first of equals) becomes "::".
  let best = [-1, 0];
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > best[1]! && j - i >= 2) best = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best[0]! < 0) return hex.join(':');
  return `${hex.slice(0, best[0]).join(':')}::${hex.slice(best[0]! + best[1]!).join(':')}`;
}

/** Where `s` leads, or null when it is not an address. */
export function classifyIp(s: string): IpClass | null {
  const b4 = parseIPv4(s);
  if (b4) return classOf(b4, V4) ?? 'public';
  const b = parseIPv6(s);
  return b ? classify6(b) : null;
}
