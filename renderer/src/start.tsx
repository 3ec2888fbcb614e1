// The window proper, loaded by main.tsx once the first calls are on their way: wire events to stores, render.
import { createRoot } from 'react-dom/client';
import { getApi } from './api/client.js';
import { connectStores } from './events.js';
import { App } from './App.js';

// For bench/window.bench.ts: when React and the views were loaded and run.
performance.mark('nexus:window-start');
connectStores(getApi());
createRoot(document.getElementById('root')!).render(<App />);
