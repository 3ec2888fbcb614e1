// The bulk-deny ghost at scale: 10,000 cards of one agent, picked by its group chip, all denied at once,
// leave no card behind and no React error in the console.
import { test, expect, bash } from '../test/support/e2e-fixtures.js';

test('bulk deny of 10,000 cards of one agent leaves none behind and logs no React error', async ({ app: page, served }) => {
  test.setTimeout(420_000);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const calls = Array.from({ length: 10_000 }, (_, i) => bash(`echo ${i}`));
  const model = await served.agent('asker', (_req, i) => (i === 0 ? { toolCalls: calls } : { text: 'ok' }), 'ask');
  // One round of 10,000 calls is far past the default runaway budget (2,000 rows): this agent may make them.
  await served.call('agentsSave', {
    name: 'asker',
    mode: 'ask',
    max_rows: 20_000,
    model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted-asker' },
  });
  await served.call('runsStart', { agent: 'asker', prompt: 'Go.' });
  await expect(page.getByTestId('pending-count')).toHaveText('10000 pending', { timeout: 240_000 });
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('agent');
  await page.getByRole('list', { name: 'Groups by agent' }).getByRole('button', { name: /asker/ }).click();
  await page.getByRole('button', { name: 'Select all matching' }).click();
  await expect(page.getByTestId('checked-count')).toHaveText('10000 selected', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Deny 10000' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deny 10000' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending', { timeout: 120_000 });
  await page.waitForTimeout(1000);
  await expect(page.getByRole('list', { name: 'Pending cards' }).getByRole('listitem')).toHaveCount(0);
  expect(errors).toEqual([]);
});
