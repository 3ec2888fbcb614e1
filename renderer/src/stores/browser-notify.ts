// OS notifications from the browser host's tab (the Web Notification API). The desktop app notifies from its
// main process (electron/shell/notify.ts), so this runs only where there is no `window.nexus`. It is opt-in:
// nothing asks for permission on load; the person turns it on in Settings ▸ App, which is when the browser
// asks. A card notifies only while this tab is hidden (a visible inbox already shows it), once per card.
import { create } from 'zustand';
import type { NexusApi } from '../../../shared/api/index.js';
import { cardHash, createNotifier } from '../../../shared/card-notification.js';

export const NOTIFY_KEY = 'nexus.notify.cards';

/** What the browser allows here: `unsupported` when it has no Notification API or the address is not secure. */
export type NotifyPermission = 'default' | 'granted' | 'denied' | 'unsupported';

const supported = (): boolean => typeof Notification !== 'undefined' && globalThis.isSecureContext !== false;
const permissionNow = (): NotifyPermission => (supported() ? Notification.permission : 'unsupported');
const optedIn = (): boolean => globalThis.localStorage?.getItem(NOTIFY_KEY) === 'on';

interface NotifyState {
  /** The person turned notifications on (and the browser granted them). */
  on: boolean;
  permission: NotifyPermission;
}
export const useBrowserNotify = create<NotifyState>(() => ({ on: optedIn() && permissionNow() === 'granted', permission: permissionNow() }));

/** The switch: turning it on asks the browser (its own prompt, once); a refusal leaves it off and says so. */
export async function setBrowserNotify(on: boolean): Promise<void> {
  if (!on || !supported()) {
    globalThis.localStorage?.setItem(NOTIFY_KEY, 'off');
    useBrowserNotify.setState({ on: false, permission: permissionNow() });
    return;
  }
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  globalThis.localStorage?.setItem(NOTIFY_KEY, permission === 'granted' ? 'on' : 'off');
  useBrowserNotify.setState({ on: permission === 'granted', permission });
}

/** Subscribe to the kernel's events: a notification per new card while the tab is hidden; a click opens the card. */
export function startBrowserNotifications(api: Pick<NexusApi, 'onEvent'>): () => void {
  const next = createNotifier();
  return api.onEvent((event) => {
    const n = next(event);
    if (!n || !useBrowserNotify.getState().on || permissionNow() !== 'granted') return;
    if (document.visibilityState !== 'hidden') return;
    const note = new Notification(n.title, { body: n.body, tag: n.id });
    note.onclick = () => {
      window.focus();
      window.location.hash = cardHash(n.id);
      note.close();
    };
  });
}
