// What the desktop shell shows outside the window: the badge / tray text for the pending count and one OS
// notification per new card. Electron-free; main.ts hands the results to Electron.

export function trayTooltip(pending: number, stopAll: boolean): string {
  const cards = pending === 0 ? 'nothing waiting' : `${pending} card${pending === 1 ? '' : 's'} waiting`;
  return `NEXUS — ${cards}${stopAll ? ' · Stop all engaged' : ''}`;
}

// The notification's words (one per new card) are shared with the browser host's tab.
export { createNotifier, cardHash, type CardNotification } from '../../shared/card-notification.js';

/** A button on a card's OS notification. */
export interface NoteAction {
  type: 'button';
  text: string;
}
/** What pressing a notification (or one of its buttons) does. */
export type NoteOutcome = { do: 'approve'; id: string } | { do: 'open'; id: string };

/** Kinds whose card is answered by Approve / Deny (the others need the window: an answer, a retry). */
const ANSWERABLE = new Set(['approval', 'autonomy', 'orchestration']);

/**
 * The buttons a card's notification carries: Approve and Deny where the platform shows notification buttons
 * (macOS; Linux notification servers that offer actions: Electron passes them on, a server without actions
 * shows none). Windows needs toast XML for buttons, so there a click opens the card. Deny never denies from
 * the notification: it opens the card so a reason can be given.
 */
export function notificationActions(kind: string, platform: NodeJS.Platform): NoteAction[] {
  if (!ANSWERABLE.has(kind) || (platform !== 'darwin' && platform !== 'linux')) return [];
  return [
    { type: 'button', text: 'Approve' },
    { type: 'button', text: 'Deny…' },
  ];
}

/** The outcome of a button (its index in notificationActions) or of a click on the body (index null). */
export function outcomeOf(cardId: string, kind: string, platform: NodeJS.Platform, index: number | null): NoteOutcome {
  const actions = notificationActions(kind, platform);
  if (index !== null && actions[index]?.text === 'Approve') return { do: 'approve', id: cardId };
  return { do: 'open', id: cardId };
}
