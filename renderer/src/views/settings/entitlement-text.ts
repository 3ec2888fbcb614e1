// The entitlement in words, for Settings ▸ Agents ▸ Orchestration: where it comes from, where to get it, how
// the last refresh from the account went. Pure (tested beside); the page only lays these out.
import type { z } from 'zod';
import type { EntitlementView } from '../../../../shared/api/orchestration.js';
import { ago } from '../../components/time.js';

export type Entitlement = z.infer<typeof EntitlementView>;

/** Where to get it, said plainly. The settings UI never changes the entitlement itself. */
export const WHERE_TO_GET = 'Your NEXUS account grants it; or ask your administrator for an entitlement file and run `nexus entitlements import FILE`.';

export function pillText(e: Entitlement | null): string {
  if (e?.entitled) return 'Entitled';
  if (e?.status === 'expired') return 'Expired';
  if (e?.status === 'invalid') return 'Invalid';
  return 'Not entitled';
}

/** Where the stored token came from. */
export function sourceText(e: Entitlement | null, now: number): string {
  if (!e || e.source === null) return 'No entitlement is stored yet.';
  if (e.source === 'account') {
    const when = e.refreshed_at ? `, refreshed ${ago(e.refreshed_at, now)}` : '';
    return `From your NEXUS account${e.account.url ? ` (${e.account.url})` : ''}${when}.`;
  }
  return 'From an entitlement file imported with `nexus entitlements import`.';
}

/** The account link: not configured, misconfigured, or how its last refresh went. */
export function accountText(e: Entitlement | null, now: number): string | null {
  const a = e?.account;
  if (!a) return null;
  if (a.problem) return `The account service is not used: ${a.problem}`;
  if (!a.configured) return 'No account service is configured (NEXUS starts with NEXUS_ACCOUNT_URL and NEXUS_ACCOUNT_TOKEN to use one).';
  const last = a.last_refresh;
  if (!last) return `Account service: ${a.url}. Not asked yet in this run of the app.`;
  return last.ok
    ? `Account service: ${a.url}. Last refresh ${ago(last.at, now)} succeeded.`
    : `Account service: ${a.url}. Last refresh ${ago(last.at, now)} failed: ${last.message ?? last.code}`;
}

/** What the Refresh button says once the account answered (or did not). */
export function refreshOutcome(r: { ok: true; value: Entitlement } | { ok: false; message: string }): { ok: boolean; text: string } {
  if (!r.ok) return { ok: false, text: `Refresh failed: ${r.message}` };
  return { ok: true, text: r.value.entitled ? `Refreshed: ${r.value.message}` : `Refreshed, but not entitled: ${r.value.message}` };
}

/** A moment as a person reads it, in their own zone ("2 Dec 2026, 14:05"), never a raw ISO string. */
export const localTime = (iso: string): string =>
  new Date(iso).toLocaleString([], { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

/** The kernel's message (shared with the CLI, which keeps ISO) with its ISO times said in local time. */
export function messageText(e: Entitlement | null): string {
  if (!e) return '';
  return e.message.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g, (iso) =>
    Number.isNaN(Date.parse(iso)) ? iso : localTime(iso),
  );
}
