// NEXUS's own application menu, as plain data for Menu.buildFromTemplate (main.ts). Packaged builds get no
// Reload and no DevTools: a reload would drop the window's state mid-decision, and DevTools would let anyone
// at the keyboard call the API around the window's own checks. Development builds keep both.
export interface MenuItem {
  label?: string;
  role?: string;
  type?: 'separator' | 'submenu';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItem[];
}

export interface MenuActions {
  openWindow(): void;
}

export function appMenuTemplate(opts: { platform: NodeJS.Platform; packaged: boolean; appName: string; actions: MenuActions }): MenuItem[] {
  const mac = opts.platform === 'darwin';
  const sep: MenuItem = { type: 'separator' };
  const menu: MenuItem[] = [];
  if (mac) {
    menu.push({ label: opts.appName, submenu: [{ role: 'about' }, sep, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, sep, { role: 'quit' }] });
  }
  menu.push({
    label: 'File',
    submenu: [{ label: 'Open NEXUS Window', accelerator: 'CmdOrCtrl+N', click: opts.actions.openWindow }, sep, mac ? { role: 'close' } : { role: 'quit' }],
  });
  // Edit: without these roles the clipboard shortcuts do not work in text fields on macOS.
  menu.push({ label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, sep, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] });
  const view: MenuItem[] = [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, sep, { role: 'togglefullscreen' }];
  if (!opts.packaged) view.unshift({ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, sep);
  menu.push({ label: 'View', submenu: view });
  menu.push({ label: 'Window', submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, sep, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }] });
  return menu;
}

/** Keyboard shortcuts a packaged window must ignore even without a menu item (Chromium's own reload/devtools). */
export function isBlockedShortcut(input: { key: string; control: boolean; meta: boolean; shift: boolean; alt: boolean }, packaged: boolean): boolean {
  if (!packaged) return false;
  const key = input.key.toLowerCase();
  const mod = input.control || input.meta;
  if (key === 'f5' || key === 'f12') return true;
  if (mod && key === 'r') return true;
  if (mod && input.shift && (key === 'i' || key === 'j' || key === 'c')) return true;
  if (input.meta && input.alt && (key === 'i' || key === 'j')) return true;
  return false;
}
