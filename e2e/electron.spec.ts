// The real Electron window, where an Electron binary exists. Here (no binary can be downloaded) it skips and
// says so; the same renderer is covered through the browser host by the other specs.
import { test, expect, _electron as electron } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { removeDir, tempDir } from '../test/support/world.js';

const ROOT = join(import.meta.dirname, '..');

function electronBinary(): string | null {
  try {
    const pkg = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(pkg, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const bin = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();

/** The window loads better-sqlite3's Electron build from native/ (node_modules keeps the Node build). */
function electronSqlite(): string | null {
  const dir = join(ROOT, 'native', `electron-${process.platform}-${process.arch}`);
  if (existsSync(join(dir, 'manifest.json'))) return null;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'electron-native.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  return r.status === 0
    ? null
    : `better-sqlite3 could not be built for Electron (node scripts/electron-native.mjs): ${(r.stderr || r.stdout).trim().slice(-300)}`;
}

test('the Electron window: one sandboxed, isolated window exposing only window.nexus', async () => {
  test.skip(
    !binary,
    'No Electron binary on this machine (node_modules/electron has no downloaded dist): the Electron window cannot launch here, so this test is skipped. The browser-host specs cover the same renderer.',
  );
  test.skip(!existsSync(join(ROOT, 'dist', 'electron', 'main.cjs')), 'Run `npm run build` first: dist/electron/main.cjs is missing.');
  const sqliteProblem = electronSqlite();
  test.skip(sqliteProblem !== null, sqliteProblem ?? '');
  const dataDir = tempDir('electron');
  const app = await electron.launch({ executablePath: binary!, args: [ROOT], env: { ...process.env, NEXUS_DATA_DIR: dataDir } });
  try {
    const win = await app.firstWindow();
    await expect(win).toHaveTitle('NEXUS');
    await expect(win.getByRole('banner')).toBeVisible();
    const exposed = await win.evaluate(() => ({
      nexus: typeof (window as unknown as { nexus?: Record<string, unknown> }).nexus?.inboxList,
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(exposed).toEqual({ nexus: 'function', require: 'undefined', process: 'undefined' });
    const windows = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length);
    expect(windows).toBe(1);
    // New windows and navigation away are blocked.
    expect(await win.evaluate(() => window.open('https://example.com') === null)).toBe(true);
    const before = win.url();
    await win.evaluate(() => (location.href = 'https://example.com')).catch(() => {});
    await win.waitForTimeout(500);
    expect(win.url()).toBe(before);
    const status = await win.evaluate(() => (window as unknown as { nexus: { status(i: object): Promise<{ ok: boolean }> } }).nexus.status({}));
    expect(status.ok).toBe(true);
    // Served from the app's own scheme, not file://.
    expect(win.url()).toMatch(/^nexus:\/\/app\/index\.html/);
    // While the window (Electron's SQLite build) runs, the Node `nexus` command (Node's build) works too.
    const cli = spawnSync(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'status', '--json'], {
      env: { ...process.env, NEXUS_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(cli.status, cli.stderr).toBe(0);
  } finally {
    await app.close();
    removeDir(dataDir);
  }
});
