// The one declaration of what NEXUS puts on the window: the Electron preload exposes the typed client as
// `window.nexus` (electron/preload.ts). It is optional because a browser tab has none: the page then reaches
// the browser host through the web bridge (web-bridge.ts resolveApi).
import type { NexusApi } from '../../../shared/api/index.js';

declare global {
  interface Window {
    nexus?: NexusApi;
  }
}
