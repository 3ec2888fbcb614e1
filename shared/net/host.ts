// The grammar of the hosts an agent's commands may reach (`network.allow`), and how a rule matches a host: one
// source for the profile's validation and for the proxy's decision. A rule is a DNS name, `*.` and a DNS name
// (every subdomain, not the name itself), or an IP address (that address only).
import { canonicalIp, isIp } from './ip.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// A last label a URL parser or resolver reads as a number (`127.1`, `0x7f.1`, `2130706433`) is an address.
const NUMERIC = /^(?:[0-9]+|0x[0-9a-f]*)$/i;

/** A DNS host name in ASCII: letters, digits and inner hyphens, 1–63 per label, at most 253; never numeric. */
export function isHostName(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  const labels = s.split('.');
  return labels.every((l) => LABEL.test(l)) && !NUMERIC.test(labels[labels.length - 1]!);
}

/** A valid `network.allow` entry: a host name, `*.` and a host name, or an IP address. */
export const isNetworkRule = (s: string): boolean => isHostName(s.startsWith('*.') ? s.slice(2) : s) || isIp(s);

export const NETWORK_RULE_HINT = 'a host name such as api.github.com, *.github.com, or an IP address such as 10.0.0.5';

/**
 * Does `rule` let a command ask for `host`? `host` is already normalised (lower case, ASCII, no trailing dot;
 * an address in canonical form); an address matches only a rule naming that same address.
 */
export function ruleMatches(rule: string, host: string): boolean {
  const ip = canonicalIp(host);
  if (ip !== null) return canonicalIp(rule) === ip;
  const r = rule.toLowerCase();
  return r.startsWith('*.') ? host.endsWith(r.slice(1)) && host.length > r.length - 1 : host === r;
}

/** The addresses the rules name (canonical), which a host may reach even where they are not public. */
export const namedAddresses = (allow: readonly string[]): Set<string> => new Set(allow.map(canonicalIp).filter((a): a is string => a !== null));
