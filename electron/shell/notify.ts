// What the desktop shell shows outside the window: the badge / tray text for the pending count and one OS
// notification per new card. Electron-free; main.ts hands the results to Electron.
import type { NexusEvent } from '../../shared/api/index.js';

export function trayTooltip(pending: number, stopAll: boolean): string {
  const cards = pending === 0 ? 'nothing waiting' : `${pending} card${pending === 1 ? '' : 's'} waiting`;
  return `NEXUS — ${cards}${stopAll ? ' · Stop all engaged' : ''}`;
}

export interface CardNotification {
  id: string;
  title: string;
  body: string;
}

/** One notification per new card: the same item id never notifies twice (a re-nudge is not a new card). */
export function createNotifier(limit = 500) {
  const seen = new Set<string>();
  return (event: NexusEvent): CardNotification | null => {
    if (event.type !== 'work_available') return null;
    if (seen.has(event.item_id)) return null;
    seen.add(event.item_id);
    if (seen.size > limit) seen.delete(seen.values().next().value as string);
    const kind = event.kind === 'orchestration' ? 'Orchestration asks' : event.kind === 'question' ? 'A question' : event.kind === 'attention' ? 'Needs attention' : 'Approval needed';
    return { id: event.item_id, title: `${kind}${event.agent ? ` · ${event.agent}` : ''}`, body: event.title };
  };
}
