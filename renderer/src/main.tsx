// Start: find the API (Electron's preload or the browser host's socket), wire events to stores, render.
import { createRoot } from 'react-dom/client';
import { resolveApi } from './api/web-bridge.js';
import { setApi } from './api/client.js';
import { connectStores } from './events.js';
import { App } from './App.js';
import './styles.css';

const api = resolveApi(window as unknown as Parameters<typeof resolveApi>[0]);
setApi(api);
connectStores(api);
createRoot(document.getElementById('root')!).render(<App />);
