// The browser host's keys. A launch token opens NEXUS once: it rides in the printed address's fragment
// (`#token=…`, never sent in an HTTP request), is good for one exchange within LAUNCH_TTL_MS, and the exchange
// gives the page a session secret that lives in the page's memory only. No cookie: cookies are not scoped by
// port, so every other server on 127.0.0.1 would receive one.
//
// Tokens and secrets are kept as SHA-256 digests and looked up by digest: the lookup's timing can only tell
// an attacker about a hash of their own guess, never about a secret.
import { createHash } from 'node:crypto';
import { newSecret } from './credential.js';

/** How long a printed (or `nexus open`) address stays good: long enough to click it, short enough to be gone. */
export const LAUNCH_TTL_MS = 2 * 60_000;

export type Exchange = { ok: true; session: string } | { ok: false; code: 'launch_used' | 'launch_expired' | 'unauthenticated'; message: string };

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

const NEW_ADDRESS = 'Run `nexus open` in a terminal (with the same --data-dir, if you gave one) and open the address it prints.';

export const AUTH_MESSAGES = {
  launch_used: `This address was already used: each address opens NEXUS once. ${NEW_ADDRESS}`,
  launch_expired: `This address expired: an address opens NEXUS within ${LAUNCH_TTL_MS / 60_000} minutes of being printed. ${NEW_ADDRESS}`,
  unknown_launch: `This address is not from the NEXUS running now (was it restarted?). ${NEW_ADDRESS}`,
  unknown_session: `This tab's key is not from the NEXUS running now (was it restarted?). ${NEW_ADDRESS}`,
  no_key: `This tab holds no key to NEXUS (a reload forgets it). ${NEW_ADDRESS}`,
} as const;

export interface SessionKeeper {
  /** A new one-time launch token. */
  issue(): string;
  /** Spend a launch token for a session secret; a second use, a late use or a stranger's token is refused. */
  exchange(token: unknown): Exchange;
  /** Whether a page presents a session secret this launch gave out. */
  validSession(secret: unknown): boolean;
}

export function createSessionKeeper(opts: { now?: () => number; ttlMs?: number } = {}): SessionKeeper {
  const now = opts.now ?? Date.now;
  const ttl = opts.ttlMs ?? LAUNCH_TTL_MS;
  // digest → deadline and whether spent (spent entries stay until their deadline, to say "already used").
  const launches = new Map<string, { expiresAt: number; used: boolean }>();
  const sessions = new Set<string>();
  const prune = () => {
    const t = now();
    for (const [k, v] of launches) if (v.expiresAt <= t) launches.delete(k);
  };
  return {
    issue() {
      prune();
      const token = newSecret();
      launches.set(digest(token), { expiresAt: now() + ttl, used: false });
      return token;
    },
    exchange(token) {
      if (typeof token !== 'string' || !token) return { ok: false, code: 'unauthenticated', message: AUTH_MESSAGES.unknown_launch };
      const key = digest(token);
      const entry = launches.get(key);
      if (!entry) return { ok: false, code: 'unauthenticated', message: AUTH_MESSAGES.unknown_launch };
      if (entry.used) return { ok: false, code: 'launch_used', message: AUTH_MESSAGES.launch_used };
      if (now() >= entry.expiresAt) {
        launches.delete(key);
        return { ok: false, code: 'launch_expired', message: AUTH_MESSAGES.launch_expired };
      }
      entry.used = true;
      const session = newSecret();
      sessions.add(digest(session));
      return { ok: true, session };
    },
    validSession: (secret) => typeof secret === 'string' && secret.length > 0 && sessions.has(digest(secret)),
  };
}
