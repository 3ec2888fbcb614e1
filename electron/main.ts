// The Electron shell: one window over the kernel in this (main) process. Small setupX() steps; everything
// electron-free lives elsewhere (the kernel in app.ts, the door in doors/ipc.ts, helpers in shell/).
import { app, BrowserWindow, Menu, dialog, Notification, Tray, nativeImage, protocol, safeStorage, session, shell, type WebContents } from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createNexus, type Nexus } from './app.js';
import { startIpcDoor } from './doors/ipc.js';
import { startSocketDoor } from './doors/socket.js';
import { desktopKeys, keychainCipher } from './shell/desktop-keys.js';
import { followPending } from './shell/pending-count.js';
import { windowOptions } from './shell/window-options.js';
import { createNotifier, trayTooltip, notificationActions, outcomeOf, cardHash } from './shell/notify.js';
import { createNotificationRegistry } from './shell/notification-registry.js';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, APP_URL, isAppPage, resolveAppAsset } from './shell/app-protocol.js';
import { appMenuTemplate, isBlockedShortcut } from './shell/app-menu.js';
import { chromiumProfileDir } from './shell/chromium-profile.js';
import { loginShell, mergeLoginEnv, readLoginShellEnv, shouldLoadLoginEnv } from './shell/login-env.js';
import { windowOpener } from './shell/window-opener.js';
import { resolveDataDir } from './store/data-dir.js';
import { log } from './log.js';
import { errorMessage } from '../shared/errors.js';

// Bundled to dist/electron/main.cjs: the renderer is dist/renderer, the preload sits beside this file.
const RENDERER_DIR = join(__dirname, '..', 'renderer');
const ICON = join(RENDERER_DIR, 'icon.png');

let win: BrowserWindow | null = null;
const contents = (): WebContents | null => (win && !win.isDestroyed() ? win.webContents : null);

/** Bring the window forward, or open a new one when none is left (macOS keeps running with no window). No window
 *  before the kernel and its IPC door are up: a second launch during start-up waits for the first window. */
let kernelUp = false;
const showWindow = windowOpener(
  () => win,
  () => kernelUp && setupWindow(),
);

/** Before ready: nexus:// is the window's origin, and Chromium's profile stays out of the data dir. */
function setupBeforeReady() {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
  app.setPath('sessionData', chromiumProfileDir());
}

/** Serve dist/renderer (inside app.asar when packaged) on nexus://app/; nothing else is reachable. */
function setupAppProtocol() {
  protocol.handle(APP_SCHEME, async (request) => {
    const asset = resolveAppAsset(RENDERER_DIR, request.url);
    if (!asset) return new Response('Not found', { status: 404 });
    try {
      return new Response(await readFile(asset.file), { headers: { 'content-type': asset.type, 'x-content-type-options': 'nosniff' } });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

/** NEXUS's own menu: no Reload or DevTools in packaged builds (shell/app-menu.ts). */
function setupMenu() {
  const template = appMenuTemplate({ platform: process.platform, packaged: app.isPackaged, appName: 'NEXUS', actions: { openWindow: showWindow } });
  // The template names Electron's own roles; app-menu.ts keeps them as plain strings to stay electron-free.
  Menu.setApplicationMenu(Menu.buildFromTemplate(template as Parameters<typeof Menu.buildFromTemplate>[0]));
}

/** Started from the Dock, Finder or a .desktop file: take the login shell's environment (PATH, keys). */
async function loadLoginEnv() {
  if (!shouldLoadLoginEnv(process.platform, process.env, Boolean(process.stdout.isTTY))) return;
  const shellPath = loginShell(process.platform, process.env);
  const r = await readLoginShellEnv({ shell: shellPath });
  if (r.ok) mergeLoginEnv(process.env, r.env);
  else log.warn(`kept the launcher's environment: ${r.reason}.`);
}

/** One NEXUS per user: a second launch focuses the first window (and the data dir lock guards the kernel). */
function setupSingleInstance(): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', showWindow);
  return true;
}

/** No navigation, no new windows, no webviews, no permissions; external links go to the OS browser. */
function setupSecurity() {
  app.on('web-contents-created', (_e, wc) => {
    wc.on('will-navigate', (e, url) => {
      if (!isAppPage(url)) e.preventDefault();
    });
    // Chromium's own reload and DevTools shortcuts work even without a menu item: ignore them when packaged.
    wc.on('before-input-event', (e, input) => {
      if (input.type === 'keyDown' && isBlockedShortcut(input, app.isPackaged)) e.preventDefault();
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
  win = new BrowserWindow(windowOptions({ icon: ICON, preload: join(__dirname, 'preload.cjs'), packaged: app.isPackaged }));
  const opened = win;
  opened.once('ready-to-show', () => opened.show());
  opened.on('closed', () => {
    if (win === opened) win = null;
  });
  void opened.loadURL(APP_URL);
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
      Menu.buildFromTemplate([{ label: 'Open NEXUS', click: showWindow }, { type: 'separator' }, { label: 'Quit', click: () => app.quit() }]),
    );
    tray.on('click', showWindow);
  } catch {
    tray = null; // Some Linux desktops have no tray; the badge and the window still say it.
  }
  followPending(nexus, (pending, stopAll) => {
    app.setBadgeCount(pending);
    tray?.setToolTip(trayTooltip(pending, stopAll));
  });
}

/** Bring the window forward on one card (a Deny from a notification lands here, where a reason can be given). */
function openCard(id: string) {
  showWindow();
  void win?.webContents.executeJavaScript(`location.hash = ${JSON.stringify(cardHash(id))}`).catch(() => {});
}

/** An OS notification for each new card; clicking it brings the window forward (or opens one). Each is held
 *  until clicked or closed, else it can be collected and its click lost. macOS shows them for signed builds only. */
function setupNotifications(nexus: Nexus) {
  if (!Notification.isSupported()) return;
  const notifier = createNotifier();
  const held = createNotificationRegistry<Notification>();
  nexus.onEvent((e) => {
    const n = notifier(e);
    if (!n) return;
    const actions = notificationActions(n.kind, process.platform);
    const note = new Notification({ title: n.title, body: n.body, silent: false, actions });
    const act = (index: number | null) => {
      const o = outcomeOf(n.id, n.kind, process.platform, index);
      if (o.do === 'approve') {
        void Promise.resolve(nexus.handlers.inboxApprove({ id: o.id, trust_session: false }, { door: 'ipc' })).catch(() => openCard(o.id));
        return;
      }
      openCard(o.id);
    };
    note.on('action', (_e, index) => act(index));
    held.keep(note, () => act(null)).show();
  });
}

async function start() {
  if (!setupSingleInstance()) return;
  if (process.platform === 'win32') app.setAppUserModelId('app.nexus.desktop'); // notifications need it on Windows
  setupBeforeReady();
  const loginEnv = loadLoginEnv();
  await app.whenReady();
  setupSecurity();
  setupAppProtocol();
  setupMenu();
  await loginEnv; // NEXUS_DATA_DIR and the keys' variables may come from the login shell
  // The same data dir the `nexus` command uses (--data-dir, NEXUS_DATA_DIR, else the platform's app-data
  // folder), so the CLI reaches this window's kernel through its control socket.
  const flag = process.argv.indexOf('--data-dir');
  const dataDir = resolveDataDir(flag > 0 ? process.argv[flag + 1] : undefined);
  let nexus: Nexus;
  try {
    nexus = await createNexus({ dataDir, secretCipher: keychainCipher(safeStorage), keys: desktopKeys(safeStorage) });
  } catch (e) {
    dialog.showErrorBox('NEXUS could not start', errorMessage(e));
    app.exit(1);
    return;
  }
  const closeIpc = setupIpc(nexus);
  // The `nexus` command reaches this kernel through the control socket in the data dir, as with `nexus serve`.
  const socket = await startSocketDoor(nexus).catch((e) => {
    log.error('the control socket could not start', e);
    return null;
  });
  setupBadge(nexus);
  setupNotifications(nexus);
  kernelUp = true;
  showWindow();
  app.on('activate', showWindow);
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
