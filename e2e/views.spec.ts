// Screenshots of the main views with real data, in dark mode too (prefers-color-scheme), as artifacts; and the
// card for a write shows the diff the approver reads.
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

test.use({ colorScheme: 'dark' });

test('dark mode: a write card shows its diff; runs and agents views render', async ({ app: page, served }, testInfo) => {
  const run = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  await served.call('runsAppend', { run_id: run.id, tool: 'write', input: { path: 'notes.md', content: 'first line\nsecond line\n' } });
  await served.call('runsAppend', { run_id: run.id, tool: 'bash', input: { command: 'git push --force origin main' } });
  const card = page.getByRole('article');
  await expect(card).toContainText('wants to use write');
  const diff = card.getByLabel('Changes');
  await expect(diff).toContainText('first line');
  await expect(diff.locator('.diff-line.add')).toHaveCount(2);
  await shot(page, testInfo, 'dark-inbox-write-diff');

  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await expect(page.locator('.rows')).toContainText('needs approval');
  await shot(page, testInfo, 'dark-runs');

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Recent chains' })).toBeVisible();
  await shot(page, testInfo, 'dark-settings');

  // The Models page shows commands as code, not with literal backticks.
  await page
    .getByRole('button', { name: 'Models' })
    .or(page.getByRole('link', { name: 'Models' }))
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Connect a model' })).toBeVisible();
  await expect(page.locator('.setting-desc code').filter({ hasText: 'ollama pull llama3.1' })).toBeVisible();
  await expect(page.locator('.settings-page')).not.toContainText('`');
  await shot(page, testInfo, 'dark-models');
});

test('when nexus serve goes away the window says what to do, not only that it reconnects', async ({ app: page, served }) => {
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  const exited = new Promise((r) => served.process.once('exit', r));
  served.process.kill('SIGTERM');
  await exited;
  await expect(page.getByRole('status').filter({ hasText: 'Connection lost, reconnecting' })).toContainText('open the new address it printed');
});
