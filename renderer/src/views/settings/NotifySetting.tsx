// Settings ▸ App: OS notifications for new cards. The desktop app sends them itself; in a browser tab the
// person opts in here (the browser asks for permission then, never on load).
import { Switch } from '../../components/Switch.js';
import { setBrowserNotify, useBrowserNotify, type NotifyPermission } from '../../stores/browser-notify.js';

const WHY: Record<NotifyPermission, string> = {
  default: 'Your browser asks once when you turn this on.',
  granted: 'Your browser allows notifications from this address.',
  denied: 'Your browser blocks notifications from this address: allow them in its site settings (the icon left of the address), then turn this on.',
  unsupported: 'This browser cannot show notifications here: they need a secure address, such as the http://127.0.0.1 one nexus serve prints.',
};

export function NotifySetting() {
  const { on, permission } = useBrowserNotify();
  if (window.nexus) {
    return (
      <section className="panel">
        <p className="setting-desc">
          Notifications: the desktop app shows an OS notification for every new card, with Approve and Deny where your system offers buttons. Your system’s
          notification settings turn them off.
        </p>
      </section>
    );
  }
  return (
    <section className="panel">
      <Switch
        label="Notify me of new cards while this tab is hidden"
        checked={on}
        disabled={permission === 'unsupported' || permission === 'denied'}
        onChange={(next) => void setBrowserNotify(next)}
        description={`One OS notification per new card; clicking it opens the card here. ${WHY[permission]}`}
      />
    </section>
  );
}
