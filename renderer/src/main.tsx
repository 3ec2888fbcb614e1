// Start: find the API (Electron's preload or the browser host's socket) and ask for the inbox at once, then
// load the window itself. This entry is kept small on purpose: the socket's handshake and the kernel's work on
// the first inboxList overlap with loading and running React and the views (start.tsx), instead of waiting for
// them (DESIGN §6: 1,000 pending cards painted ≤ 300 ms from navigation).
import { resolveApi, type ConnectionState } from './api/web-bridge.js';
import { setApi, prefetch } from './api/client.js';
import './styles.css';

const api = resolveApi(window);
setApi(api);
// The first page of the inbox, exactly as the inbox store asks for it (stores/inbox.ts PAGE_SIZE).
prefetch([['inboxList', { limit: 200 }], 'status']);

// Running React and the views is one long task on the main thread. Started before the socket's `open` event
// was handled, it would hold that event (and so the first calls, queued until then) for its whole length; so
// the window starts once the calls are on the wire, or the first attempt failed, or after 250 ms at most
// (start.tsx is already fetched and parsed meanwhile: index.html preloads it).
const sent = new Promise<void>((resolve) => {
  if (!api.onConnection || api.connectionState?.() !== 'connecting') return resolve();
  const off = api.onConnection((state: ConnectionState) => {
    if (state === 'connecting') return;
    off();
    resolve();
  });
  setTimeout(resolve, 250);
});
void sent.then(() => import('./start.js'));
