// The pending count the dock/taskbar badge and the tray's tooltip show, kept current: the kernel's status once
// at start, the count each inbox change pushes, and the status again when settings change (Stop all).
import type { Nexus } from '../app.js';

export function followPending(nexus: Pick<Nexus, 'handlers' | 'onEvent'>, show: (pending: number, stopAll: boolean) => void): void {
  let stopAll = false;
  const refresh = () =>
    void Promise.resolve(nexus.handlers.status({}, { door: 'internal' })).then(
      (s) => {
        if (!s) return;
        stopAll = s.stop_all;
        show(s.pending, stopAll);
      },
      () => {},
    );
  show(0, stopAll);
  refresh();
  nexus.onEvent((e) => {
    if (e.type === 'inbox_changed') show(e.pending, stopAll);
    if (e.type === 'settings_changed') refresh();
  });
}
