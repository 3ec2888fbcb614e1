// The window proper, loaded by main.tsx once the first calls are on their way: wire events to stores, render.
import { createRoot } from 'react-dom/client';
import { getApi } from './api/client.js';
import { connectStores } from './events.js';
import { App } from './App.js';
import { startBrowserNotifications } from './stores/browser-notify.js';

// For bench/window.bench.ts: when React and the views were loaded and run.
performance.mark('nexus:window-start');
connectStores(getApi());
// The desktop app notifies from its main process; a browser tab does it here, once the person opts in.
if (!window.nexus) startBrowserNotifications(getApi());
createRoot(document.getElementById('root')!).render(<App />);
