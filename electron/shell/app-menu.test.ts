import { describe, it, expect } from 'vitest';
import { appMenuTemplate, isBlockedShortcut, type MenuItem } from './app-menu.js';

const actions = { openWindow: () => {} };
const roles = (m: MenuItem[]): string[] => m.flatMap((i) => [...(i.role ? [i.role] : []), ...roles(i.submenu ?? [])]);

describe('application menu', () => {
  it('packaged: no Reload, no DevTools on any platform', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const r = roles(appMenuTemplate({ platform, packaged: true, appName: 'NEXUS', actions }));
      expect(r).not.toContain('reload');
      expect(r).not.toContain('forceReload');
      expect(r).not.toContain('toggleDevTools');
      expect(r).toEqual(expect.arrayContaining(['copy', 'paste', 'selectAll', 'zoomIn']));
    }
  });

  it('development keeps Reload and DevTools', () => {
    expect(roles(appMenuTemplate({ platform: 'linux', packaged: false, appName: 'NEXUS', actions }))).toEqual(
      expect.arrayContaining(['reload', 'toggleDevTools']),
    );
  });

  it('macOS gets the app menu first; File > Open NEXUS Window opens a window', () => {
    let opened = 0;
    const m = appMenuTemplate({ platform: 'darwin', packaged: true, appName: 'NEXUS', actions: { ...actions, openWindow: () => opened++ } });
    expect(m[0].label).toBe('NEXUS');
    expect(roles([m[0]])).toContain('quit');
    m.find((i) => i.label === 'File')!.submenu![0].click!();
    expect(opened).toBe(1);
    expect(appMenuTemplate({ platform: 'win32', packaged: true, appName: 'NEXUS', actions })[0].label).toBe('File');
  });

  it('packaged windows also ignore the reload and DevTools shortcuts', () => {
    const k = (key: string, m: Partial<{ control: boolean; meta: boolean; shift: boolean; alt: boolean }> = {}) => ({
      key,
      control: false,
      meta: false,
      shift: false,
      alt: false,
      ...m,
    });
    for (const input of [
      k('F5'),
      k('F12'),
      k('r', { control: true }),
      k('R', { meta: true }),
      k('I', { control: true, shift: true }),
      k('i', { meta: true, alt: true }),
    ]) {
      expect(isBlockedShortcut(input, true), JSON.stringify(input)).toBe(true);
      expect(isBlockedShortcut(input, false)).toBe(false);
    }
    expect(isBlockedShortcut(k('c', { control: true }), true)).toBe(false);
    expect(isBlockedShortcut(k('r'), true)).toBe(false);
  });
});
