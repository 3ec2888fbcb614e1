// Bulk answers at scale: a bulk deny of every card of one agent leaves no card behind that cannot be answered.
import { test, expect, bash } from '../test/support/e2e-fixtures.js';

test('bulk deny of 200 cards of one agent, picked by its group chip, leaves none behind and logs no React error', async ({ app: page, served }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const calls = Array.from({ length: 200 }, (_, i) => bash(`echo ${i}`));
  await served.agent('asker', (_req, i) => (i === 0 ? { toolCalls: calls } : { text: 'ok' }), 'ask');
  await served.call('runsStart', { agent: 'asker', prompt: 'Go.' });
  await expect(page.getByTestId('pending-count')).toHaveText('200 pending', { timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('agent');
  await page.getByRole('list', { name: 'Groups by agent' }).getByRole('button', { name: /asker/ }).click();
  await page.getByRole('button', { name: 'Select all matching' }).click();
  await expect(page.getByTestId('checked-count')).toHaveText('200 selected');
  await page.getByRole('button', { name: 'Deny 200' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deny 200' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await page.waitForTimeout(500);
  await expect(page.getByRole('list', { name: 'Pending cards' }).getByRole('listitem')).toHaveCount(0);
  expect(errors).toEqual([]);
});
