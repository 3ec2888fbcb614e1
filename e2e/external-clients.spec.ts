// The real Claude Code CLI asks NEXUS: its hook parks the call, the card shows the command, the session, the
// folder and the time left in the same inbox as NEXUS's own agents, and Approve in the window lets the command
// run. Settings ▸ Connections connects a client after showing the change. `nexus serve` runs here with a
// throwaway HOME, so nothing touches the real person's settings.
import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientWorld, type ClientWorld } from '../test/support/clients.js';
import { oneCall, startAnthropicModel, type ClientModel } from '../test/support/client-models.js';
import { removeDir, tempDir } from '../test/support/world.js';

const ROOT = join(import.meta.dirname, '..');

async function serve(dataDir: string, home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'serve', '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, '.codex') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL'); // a server that never came up must not outlive the test
      reject(new Error(`nexus serve printed no URL: ${out}`));
    }, 20_000);
    child.stdout!.on('data', () => {
      const m = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
  });
  return { child, url };
}

let world: ClientWorld;
let served: { child: ChildProcess; url: string };
let model: ClientModel | null = null;
let dataDir: string;

test.beforeEach(async () => {
  dataDir = tempDir('e2e-ext');
  world = clientWorld(dataDir);
  served = await serve(dataDir, world.home);
});
test.afterEach(async () => {
  await model?.close();
  model = null;
  const exited = new Promise((r) => served.child.once('exit', r));
  served.child.kill('SIGTERM');
  await exited;
  world.cleanup();
  removeDir(dataDir);
});

test('a Claude Code call waits as a card; Approve in the window lets it run', async ({ page }, testInfo) => {
  model = await startAnthropicModel(oneCall({ name: 'Bash', input: { command: 'echo approved > approved.txt', description: 'Write approved.txt' } }));
  const connected = world.nexus(['connect', 'claude-code', '--project', world.project]);
  expect(connected.code, connected.stderr).toBe(0);
  await page.goto(served.url);
  const running = world.claude(model.url, 'Write approved.txt');

  const card = page.getByRole('article');
  await expect(card).toContainText('claude-code-proj wants to use bash', { timeout: 30_000 });
  await expect(card.getByText('echo approved > approved.txt').first()).toBeVisible();
  await expect(card).toContainText(/claude-code · session/);
  await expect(card).toContainText(world.project);
  await expect(card).toContainText(/1[0-4] min left/);
  const picture = testInfo.outputPath('claude-code-card.png');
  await page.screenshot({ path: picture });
  // The README's picture: refreshed with NEXUS_UPDATE_DOCS=1 (an ordinary run leaves the repository clean).
  if (process.env.NEXUS_UPDATE_DOCS === '1') {
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    copyFileSync(picture, join(ROOT, 'docs', 'claude-code-card.png'));
  }
  await testInfo.attach('claude-code-card', { path: picture, contentType: 'image/png' });

  await card.getByRole('button', { name: 'Approve' }).click();
  const r = await running;
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(world.project, 'approved.txt'), 'utf8').trim()).toBe('approved');

  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('list', { name: 'Runs' })).toContainText('claude-code session');
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await expect(page.locator('.run-detail')).toContainText('its calls came through its tool hook');
  await expect(page.locator('.rows')).toContainText('approved by you in the browser');
});

test('Settings ▸ Connections shows the change, then connects and disconnects Claude Code', async ({ page }) => {
  await page.goto(served.url);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Connections' }).click();
  const panel = page.getByRole('region', { name: 'Claude Code' });
  await expect(panel).toContainText('Not connected.');
  await panel.getByRole('button', { name: 'Connect…' }).click();
  const diff = panel.getByRole('region', { name: /Change to .*settings\.json/ });
  await expect(diff).toContainText('"PreToolUse"');
  const file = join(world.home, '.claude', 'settings.json');
  expect(existsSync(file)).toBe(false);
  await diff.getByRole('button', { name: 'Connect Claude Code' }).click();
  await expect(page.locator('.settings-page').getByRole('status')).toContainText('Connected Claude Code');
  await expect(panel).toContainText('Connected: it asks this NEXUS');
  expect(JSON.parse(readFileSync(file, 'utf8')).hooks.PreToolUse[0].hooks[0].command).toContain(dataDir);
  await panel.getByRole('button', { name: 'Disconnect…' }).click();
  await panel.getByRole('button', { name: 'Disconnect Claude Code' }).click();
  await expect(panel).toContainText('Not connected.');
  // Connect created the file (the hook and Claude Code's own sandbox settings): disconnect takes it back whole.
  expect(existsSync(file)).toBe(false);
});
