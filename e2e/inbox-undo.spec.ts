// The undo grace: an answer waits a few seconds in the window, with Undo, before it is sent; 0 turns it off.
import { test, expect, type Served } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

async function park(served: Served, n: number) {
  const run = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  for (let i = 0; i < n; i++) await served.call('runsAppend', { run_id: run.id, tool: 'bash', input: { command: `echo ${i}` } });
}

test('Approve is held with Undo and says so; Undo puts the card back and nothing is sent', async ({ app: page, served }, testInfo) => {
  await park(served, 2);
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  // A longer grace (read at each answer) leaves time for axe over the held state.
  await page.evaluate(() => localStorage.setItem('nexus.inbox.undoGraceMs', '10000'));
  await page.getByRole('article').getByRole('button', { name: 'Approve', exact: true }).click();
  const toast = page.locator('.toast');
  await expect(toast).toContainText('Approved · your run · bash echo 0 · sending in 10 s');
  await expectNoAxeViolations(page, testInfo, 'undo-held');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(toast).toContainText('Undone, nothing was sent');
  await expect(page.getByRole('list', { name: 'Pending cards' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  // Without Undo the answer goes out once the grace ends.
  await page.evaluate(() => localStorage.removeItem('nexus.inbox.undoGraceMs'));
  await page.locator('.inbox-detail .card-title').focus();
  await page.keyboard.press('d');
  await expect(toast).toContainText('Denied · your run · bash echo 0 · sending in 3 s');
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending', { timeout: 8000 });
});

test('the u key undoes the held answer; an undo grace of Off sends at once', async ({ app: page, served }, testInfo) => {
  await park(served, 1);
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  await page.locator('.inbox-detail .card-title').focus();
  await page.keyboard.press('a');
  await expect(page.locator('.toast')).toContainText('sending in');
  await page.keyboard.press('u');
  await expect(page.locator('.toast')).toContainText('Undone, nothing was sent');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'About' }).click();
  const setting = page.getByRole('combobox', { name: 'Undo grace in the Inbox' });
  await setting.selectOption('0');
  await page.setViewportSize({ width: 800, height: 820 });
  await expectNoAxeViolations(page, testInfo, 'undo-setting');
  await page.getByRole('link', { name: /^Inbox/ }).click();
  await page.getByRole('article').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending', { timeout: 2000 });
});
