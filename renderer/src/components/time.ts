// Time as a person reads it on a card: how long the 24 h park clock has left, how long ago something happened.
import { useEffect, useState } from 'react';

export function timeLeft(expiresAt: string | undefined | null, now: number): string | null {
  if (!expiresAt) return null;
  const ms = Date.parse(expiresAt) - now;
  if (Number.isNaN(ms)) return null;
  if (ms <= 0) return 'expiring now';
  const min = Math.floor(ms / 60_000);
  const h = Math.floor(min / 60);
  if (h >= 1) return `${h} h ${String(min % 60).padStart(2, '0')} min left`;
  if (min >= 1) return `${min} min left`;
  return 'under a minute left';
}

export function ago(at: string | undefined | null, now: number): string {
  if (!at) return '';
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (Number.isNaN(s)) return '';
  if (s < 10) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(at).toLocaleDateString();
}

/** A clock that ticks for display only (the kernel's own clock decides expiry). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
