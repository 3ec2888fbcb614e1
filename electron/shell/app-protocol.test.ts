import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { APP_URL, isAppPage, resolveAppAsset } from './app-protocol.js';
import { isOwnWindow } from '../doors/ipc-sender.js';

const dir = join('/opt', 'NEXUS', 'resources', 'app.asar', 'dist', 'renderer');

describe("nexus:// — the window's own scheme", () => {
  it("answers the window's files with their types", () => {
    expect(resolveAppAsset(dir, 'nexus://app/index.html')).toEqual({ file: join(dir, 'index.html'), type: 'text/html; charset=utf-8' });
    expect(resolveAppAsset(dir, 'nexus://app/')).toEqual({ file: join(dir, 'index.html'), type: 'text/html; charset=utf-8' });
    expect(resolveAppAsset(dir, 'nexus://app/assets/start-Ab12.js?v=1#x')).toEqual({
      file: join(dir, 'assets', 'start-Ab12.js'),
      type: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppAsset(dir, 'nexus://app/assets/a%20b.css')?.file).toBe(join(dir, 'assets', 'a b.css'));
  });

  it('a literal .. is resolved by the URL parser and stays inside the window folder', () => {
    expect(resolveAppAsset(dir, 'nexus://app/../../package.json')?.file).toBe(join(dir, 'package.json'));
    expect(resolveAppAsset(dir, 'nexus://app/%2e%2e/package.json')?.file).toBe(join(dir, 'package.json'));
  });

  it('refuses anything outside dist/renderer, other hosts, hidden files and unknown types', () => {
    for (const bad of [
      'nexus://app/assets/%2e%2e/%2e%2e/main.cjs',
      'nexus://app/..%2f..%2fpackage.json',
      'nexus://app/..%5c..%5cpackage.json',
      'nexus://app/%00index.html',
      'nexus://app/.env',
      'nexus://other/index.html',
      'nexus://user:pw@app/index.html',
      'nexus://app:99/index.html',
      'file:///etc/passwd',
      'nexus://app/%E0%A4%A',
      'nexus://app/keys.bin',
      'not a url',
    ])
      expect(resolveAppAsset(dir, bad), bad).toBeNull();
  });

  it('the app page (any view) is navigable; IPC trusts only that page', () => {
    expect(isAppPage(`${APP_URL}#/runs`)).toBe(true);
    expect(isAppPage('nexus://app/assets/x.js')).toBe(false);
    expect(isAppPage('https://app/index.html')).toBe(false);
    const own = { windowId: 3, appUrl: APP_URL };
    expect(isOwnWindow({ senderId: 3, frameUrl: `${APP_URL}#/inbox`, isMainFrame: true }, own)).toBe(true);
    expect(isOwnWindow({ senderId: 3, frameUrl: 'file:///opt/NEXUS/resources/app.asar/dist/renderer/index.html', isMainFrame: true }, own)).toBe(false);
  });
});
