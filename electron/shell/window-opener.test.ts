import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { windowOpener, type WindowLike } from './window-opener.js';

function fakeWindow(minimized = false) {
  const calls: string[] = [];
  let destroyed = false;
  const w: WindowLike & { calls: string[]; destroy(): void } = {
    calls,
    destroy: () => (destroyed = true),
    isDestroyed: () => destroyed,
    isMinimized: () => minimized,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
  };
  return w;
}

describe('opening the window from the Dock, the tray or a second launch', () => {
  it('with no window left, a new one is opened', () => {
    let win: ReturnType<typeof fakeWindow> | null = null;
    let created = 0;
    const open = windowOpener(
      () => win,
      () => ((win = fakeWindow()), created++),
    );
    open();
    expect(created).toBe(1);
    win!.destroy(); // closed, reference not yet cleared
    open();
    expect(created).toBe(2);
  });

  it('an existing window is restored, shown and focused, not duplicated', () => {
    const w = fakeWindow(true);
    let created = 0;
    windowOpener(
      () => w,
      () => created++,
    )();
    expect(created).toBe(0);
    expect(w.calls).toEqual(['restore', 'show', 'focus']);
  });

  it('main.ts routes the Dock, the tray, a second launch and notifications through it', () => {
    const main = readFileSync(join(import.meta.dirname, '..', 'main.ts'), 'utf8');
    for (const wiring of [
      "app.on('activate', showWindow)",
      "app.on('second-instance', showWindow)",
      "{ label: 'Open NEXUS', click: showWindow }",
      "tray.on('click', showWindow)",
      'held.keep(note, () => act(null)).show()',
    ]) {
      expect(main, wiring).toContain(wiring);
    }
    // A notification's click (and Deny) opens its card through the same opener.
    expect(/function openCard\(id: string\) \{\n  showWindow\(\);/.test(main)).toBe(true);
    expect(main).not.toMatch(/focusWindow/);
  });
});
