// The Electron shell: one window over the kernel in this (main) process. Small setupX() steps; everything
// electron-free lives elsewhere (the kernel in app.ts, the door in doors/ipc.ts, helpers in shell/).
import { app, BrowserWindow, Menu, dialog, Notification, Tray, nativeImage, safeStorage, session, shell, type WebContents } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNexus, type Nexus } from './app.js';
import { startIpcDoor } from './doors/ipc.js';
import { startSocketDoor } from './doors/socket.js';
import { createKeyFileStore, keysHandlers, type Cipher } from './shell/key-file.js';
import { createNotifier, trayTooltip, notificationActions, outcomeOf, cardHash } from './shell/notify.js';
import { resolveDataDir } from './cli/data-dir.js';

// Bundled to dist/electron/main.cjs: the renderer is dist/renderer, the preload sits beside this file.
const RENDERER_INDEX = join(__dirname, '..', 'renderer', 'index.html');
const APP_URL = pathToFileURL(RENDERER_INDEX).href;
const ICON = join(__dirname, '..', 'renderer', 'icon.png');

let win: BrowserWindow | null = null;
const contents = (): WebContents | null => (win && !win.isDestroyed() ? win.webContents : null);

function focusWindow() {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** One NEXUS per user: a second launch focuses the first window (and the data dir lock guards the kernel). */
function setupSingleInstance(): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', focusWindow);
  return true;
}

/** No navigation, no new windows, no webviews, no permissions; external links go to the OS browser. */
function setupSecurity() {
  app.on('web-contents-created', (_e, wc) => {
    wc.on('will-navigate', (e, url) => {
      if (url !== APP_URL && !url.startsWith(`${APP_URL}#`)) e.preventDefault();
    });
    wc.on('will-redirect', (e) => e.preventDefault());
    wc.on('will-attach-webview', (e) => e.preventDefault());
    wc.setWindowOpenHandler(({ url }) => {
      if (/^https:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, done) => done(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

function setupWindow() {
  win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 560,
    title: 'NEXUS',
    icon: ICON,
    show: false,
    backgroundColor: '#0d1017',
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => (win = null));
  void win.loadFile(RENDERER_INDEX);
}

function setupIpc(nexus: Nexus): () => void {
  return startIpcDoor({ nexus, contents, appUrl: APP_URL });
}

/** The pending count on the dock/taskbar badge and the tray's tooltip; updated by pushed events. */
function setupBadge(nexus: Nexus) {
  let tray: Tray | null = null;
  try {
    tray = new Tray(nativeImage.createFromPath(ICON).resize({ width: 18, height: 18 }));
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open NEXUS', click: focusWindow },
        { type: 'separator' },
        { label: 'Quit', click: () => app.quit() },
      ]),
    );
    tray.on('click', focusWindow);
  } catch {
    tray = null; // Some Linux desktops have no tray; the badge and the window still say it.
  }
  let stopAll = false;
  const show = (pending: number) => {
    app.setBadgeCount(pending);
    tray?.setToolTip(trayTooltip(pending, stopAll));
  };
  show(0);
  void Promise.resolve(nexus.handlers.status?.({}, { door: 'internal' })).then((s) => {
    if (!s) return;
    stopAll = s.stop_all;
    show(s.pending);
  }, () => {});
  nexus.onEvent((e) => {
    if (e.type === 'inbox_changed') show(e.pending);
    if (e.type === 'settings_changed') {
      void Promise.resolve(nexus.handlers.status?.({}, { door: 'internal' })).then((s) => {
        if (!s) return;
        stopAll = s.stop_all;
        show(s.pending);
      }, () => {});
    }
  });
}

/** Bring the window forward on one card (a Deny from a notification lands here, where a reason can be given). */
function openCard(id: string) {
  focusWindow();
  void win?.webContents.executeJavaScript(`location.hash = ${JSON.stringify(cardHash(id))}`).catch(() => {});
}

/** An OS notification for each new card, with Approve / Deny where the platform has buttons. */
function setupNotifications(nexus: Nexus) {
  if (!Notification.isSupported()) return;
  const notifier = createNotifier();
  nexus.onEvent((e) => {
    const n = notifier(e);
    if (!n) return;
    const actions = notificationActions(n.kind, process.platform);
    const note = new Notification({ title: n.title, body: n.body, silent: false, actions });
    const act = (index: number | null) => {
      const o = outcomeOf(n.id, n.kind, process.platform, index);
      if (o.do === 'approve') {
        void Promise.resolve(nexus.handlers.inboxApprove?.({ id: o.id, trust_session: false }, { door: 'ipc' })).catch(() => openCard(o.id));
        return;
      }
      openCard(o.id);
    };
    note.on('click', () => act(null));
    note.on('action', (_e, index) => act(index));
    note.show();
  });
}

/** Provider keys through the OS keychain (safeStorage), for the KeyStore AGENTS' providers read. */
function setupKeys(nexus: Nexus) {
  const cipher: Cipher = {
    available: () => safeStorage.isEncryptionAvailable(),
    encrypt: (s) => safeStorage.encryptString(s),
    decrypt: (b) => safeStorage.decryptString(b),
  };
  const store = createKeyFileStore(nexus.dataDir, cipher);
  nexus.services.keyStore = store;
  const exists = (agent: string) =>
    Promise.resolve()
      .then(() => nexus.handlers.agentsGet?.({ name: agent }, { door: 'internal' }))
      .then((a) => Boolean(a), () => false);
  Object.assign(nexus.handlers, keysHandlers(store, cipher, exists));
}

async function start() {
  if (!setupSingleInstance()) return;
  if (process.platform === 'win32') app.setAppUserModelId('app.nexus.desktop'); // notifications need it on Windows
  await app.whenReady();
  setupSecurity();
  // The same data dir the `nexus` command uses (--data-dir, NEXUS_DATA_DIR, else the platform's app-data
  // folder), so the CLI reaches this window's kernel through its control socket.
  const flag = process.argv.indexOf('--data-dir');
  const dataDir = resolveDataDir(flag > 0 ? process.argv[flag + 1] : undefined);
  let nexus: Nexus;
  try {
    nexus = await createNexus({ dataDir });
  } catch (e) {
    dialog.showErrorBox('NEXUS could not start', e instanceof Error ? e.message : String(e));
    app.exit(1);
    return;
  }
  setupKeys(nexus);
  const closeIpc = setupIpc(nexus);
  // The `nexus` command reaches this kernel through the control socket in the data dir, as with `nexus serve`.
  const socket = await startSocketDoor(nexus).catch((e) => {
    console.error('nexus: the control socket could not start:', e instanceof Error ? e.message : e);
    return null;
  });
  setupBadge(nexus);
  setupNotifications(nexus);
  setupWindow();
  app.on('activate', () => (win ? focusWindow() : setupWindow()));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let closing = false;
  app.on('before-quit', (e) => {
    if (closing) return;
    closing = true;
    e.preventDefault();
    closeIpc();
    void Promise.resolve(socket?.close())
      .catch(() => {})
      .then(() => nexus.close())
      .finally(() => app.exit(0));
  });
}

void start();
