// Where the proxy may take one request: the host the command asked for, normalised and matched against the
// allow list, resolved once here in the kernel, and the one address it may connect to. A name never reaches
// a loopback, link-local, private, multicast or otherwise non-public address unless a rule names that
// address; the proxy connects to the address returned, so a second answer from DNS (rebinding) is never asked.
import { lookup as dnsLookup } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { isHostName, namedAddresses, ruleMatches } from '../../shared/net/host.js';
import { canonicalIp, classifyIp } from '../../shared/net/ip.js';

export type Lookup = (host: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;
export const kernelLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

export type Destination =
  | { ok: true; host: string; address: string }
  /** `refused`: the rules refuse it (recorded for the row); otherwise the host could not be reached at all. */
  | { ok: false; host: string; why: string; refused: boolean };

/** `s` as it may be recorded and shown: control bytes and anything past ASCII escaped, and bounded. */
export function shown(s: string): string {
  const e = s.replace(/[^\x20-\x7e]|\\/g, (c) => {
    const n = c.charCodeAt(0);
    return c === '\\' ? '\\\\' : n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
  return e.length > 200 ? `${e.slice(0, 200)}…` : e;
}

/**
 * The host a request names, as NEXUS matches it: an address in canonical form, or a lower-case ASCII name
 * (IDNA) without its trailing dot; null when it is not a well-formed host.
 */
export function normaliseHost(raw: string): string | null {
  if (raw.length === 0 || raw.length > 253 || /[\x00-\x20\x7f%\\/@?#[\]]/.test(raw)) return null;
  if (raw.includes(':')) return canonicalIp(raw);
  // Unicode spaces, controls, format characters and undecodable bytes have no place in a name either.
  if (/[\p{Cc}\p{Cf}\p{Z}\uFFFD]/u.test(raw)) return null;
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  const ascii = domainToASCII(name);
  // The URL parser reads numeric spellings (127.1, 0x7f.1) as the address they mean.
  return canonicalIp(ascii) ?? (isHostName(ascii) ? ascii.toLowerCase() : null);
}

/** Where a request for `raw` may go under `allow`: one checked address, or why not. */
export async function destinationFor(raw: string, allow: readonly string[], lookup: Lookup): Promise<Destination> {
  const host = normaliseHost(raw);
  if (host === null) return { ok: false, host: shown(raw), refused: true, why: `"${shown(raw)}" is not a well-formed host name` };
  if (!allow.some((rule) => ruleMatches(rule, host))) return { ok: false, host, refused: true, why: `${host} is not in this agent's network allow list` };
  const literal = canonicalIp(host);
  let answers: ReadonlyArray<{ address: string }>;
  try {
    answers = literal ? [{ address: literal }] : await lookup(host);
  } catch {
    return { ok: false, host, refused: false, why: `${host} could not be resolved` };
  }
  const named = namedAddresses(allow);
  const judged = answers.map(({ address }) => {
    const a = canonicalIp(address);
    return { address: a, cls: a === null ? null : classifyIp(a) };
  });
  const reachable = judged.find((j) => j.address !== null && (j.cls === 'public' || named.has(j.address)));
  if (reachable) return { ok: true, host, address: reachable.address! };
  const first = judged[0];
  if (!first) return { ok: false, host, refused: false, why: `${host} could not be resolved` };
  const what =
    first.address === null
      ? `an address NEXUS cannot judge (${shown(answers[0]!.address)})`
      : `${first.address}, ${/^[aeiou]/.test(first.cls!) ? 'an' : 'a'} ${first.cls} address`;
  return {
    ok: false,
    host,
    refused: true,
    why: `${host} leads to ${what}; only a rule naming that exact address lets a command reach it`,
  };
}
