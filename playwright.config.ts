// The window's end-to-end tests: Debian's Chromium drives the browser host (`nexus serve`), one fresh data
// dir and one server process per test (test/support/e2e-fixtures.ts). Screenshots of every main view are kept under
// test-results/ as artifacts.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  // Sweeps the `<dataDir>-workspaces` folders a test's kernel left once its data dir is gone (as vitest's does).
  globalSetup: './test/support/orphan-workspaces.ts',
  workers: 2,
  fullyParallel: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 820 },
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
