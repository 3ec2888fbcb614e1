// Settings ▸ Agents ▸ Orchestration with an account service (ACCOUNT): the entitlement stays read-only (no
// import box), says where to get it, and "Refresh from account" shows the account's answer. A real `nexus
// serve` started with NEXUS_ACCOUNT_URL / NEXUS_ACCOUNT_TOKEN pointing at a small account service on 127.0.0.1.
import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fakeAccountService, tokenAnswer, type FakeAccountService } from '../test/support/account-service.js';
import { removeDir, tempDir } from '../test/support/world.js';

const ROOT = join(import.meta.dirname, '..');
let svc: FakeAccountService;
let child: ChildProcess;
let dataDir: string;
let url: string;

test.beforeEach(async () => {
  svc = await fakeAccountService();
  svc.answer = (_q, res) => res.writeHead(401).end();
  dataDir = tempDir('e2e-acct');
  child = spawn(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'serve', '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, NEXUS_ENTITLEMENT_PUBLIC_KEY: svc.publicPem, NEXUS_ACCOUNT_URL: svc.url, NEXUS_ACCOUNT_TOKEN: 'e2e-account-credential' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nexus serve printed no URL: ${out}`)), 20_000);
    child.stdout!.on('data', () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
});

test.afterEach(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await svc.close();
  removeDir(dataDir);
});

test('the entitlement is read-only, says where to get it, and Refresh from account shows the answer', async ({ page }) => {
  await page.goto(url);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Recent chains', exact: true })).toBeVisible();
  await expect(page.getByText(/Your NEXUS account grants it; or ask your administrator for an entitlement file and run/)).toBeVisible();
  await expect(page.getByTestId('entitlement-state')).toHaveText('Entitlement: Not entitled');
  // No way to type a token on this screen.
  await expect(page.locator('textarea')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: /token|entitlement/i })).toHaveCount(0);

  const button = page.getByRole('button', { name: 'Refresh from account' });
  await button.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Refresh failed' })).toContainText('answered 401: sign in again');

  svc.answer = tokenAnswer(await svc.sign({ ent: ['nexus.orchestration'], exp: Math.floor(Date.now() / 1000) + 3600 }));
  await button.click();
  await expect(page.getByRole('status').filter({ hasText: 'Refreshed:' })).toContainText('Entitled to nexus.orchestration');
  await expect(page.getByTestId('entitlement-state')).toHaveText('Entitlement: Entitled');
  await expect(page.getByText(/From your NEXUS account \(http:\/\/127\.0\.0\.1:\d+\), refreshed/)).toBeVisible();
  expect(svc.hits.every((h) => h.authorization === 'Bearer e2e-account-credential')).toBe(true);
});
