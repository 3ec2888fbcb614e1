// One OS notification per new card, worded once for both places that show one: the desktop shell (Electron's
// Notification, electron/shell/notify.ts) and the browser host's tab (the Web Notification API,
// renderer/src/stores/browser-notify.ts). Pure: no I/O, no platform API.
import type { NexusEvent } from './api/index.js';

export interface CardNotification {
  id: string;
  /** The card's kind as the event names it (approval, orchestration, question, attention). */
  kind: string;
  title: string;
  body: string;
}

const HEADS: Record<string, string> = { orchestration: 'Orchestration asks', question: 'A question', attention: 'Needs attention' };

/** One notification per new card: the same item id never notifies twice (a re-nudge is not a new card). */
export function createNotifier(limit = 500) {
  const seen = new Set<string>();
  return (event: NexusEvent): CardNotification | null => {
    if (event.type !== 'work_available') return null;
    if (seen.has(event.item_id)) return null;
    seen.add(event.item_id);
    if (seen.size > limit) {
      const [oldest] = seen;
      if (oldest !== undefined) seen.delete(oldest);
    }
    const head = HEADS[event.kind] ?? 'Approval needed';
    return { id: event.item_id, kind: event.kind, title: `${head}${event.agent ? ` · ${event.agent}` : ''}`, body: event.title };
  };
}

/** The window address of one card: the inbox opens with it selected. */
export const cardHash = (id: string): string => `#/inbox/${encodeURIComponent(id)}`;
