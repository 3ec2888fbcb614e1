// The one window's options, as plain data for new BrowserWindow (main.ts): isolated, sandboxed, no Node in
// the page; DevTools only in development builds.
export interface WindowPaths {
  icon: string;
  preload: string;
  packaged: boolean;
}

export function windowOptions({ icon, preload, packaged }: WindowPaths) {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 560,
    title: 'NEXUS',
    icon,
    show: false,
    backgroundColor: '#0d1017',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      devTools: !packaged,
    },
  };
}
