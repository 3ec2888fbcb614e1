// The Inbox by keyboard alone: x then a answers the selection, ? lists the keys, Esc leaves the reason box.
import { test, expect, type Served } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

async function park(served: Served, n: number) {
  const run = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  for (let i = 0; i < n; i++) await served.call('runsAppend', { run_id: run.id, tool: 'bash', input: { command: `echo ${i}` } });
}

test('x then a answers the selection (after its confirm), not just the focused card', async ({ app: page, served }, testInfo) => {
  await park(served, 4);
  await expect(page.getByTestId('pending-count')).toHaveText('4 pending');
  await page.locator('.inbox-detail .card-title').focus();
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await expect(page.getByTestId('checked-count')).toHaveText('2 selected');
  await page.keyboard.press('a');
  const dialog = page.getByRole('alertdialog', { name: 'Approve 2 calls?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'keys-bulk-approve');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  // With nothing checked, d denies the focused card alone.
  await page.locator('.inbox-detail .card-title').focus();
  await page.keyboard.press('d');
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
});

test('? opens the list of shortcuts as a dialog; Escape closes it and focus goes back', async ({ app: page, served }, testInfo) => {
  await park(served, 1);
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  const title = page.locator('.inbox-detail .card-title');
  await title.focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('table')).toContainText('Approve the card; with cards selected, approve the selection');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await expectNoAxeViolations(page, testInfo, 'keys-shortcuts');
  await page.setViewportSize({ width: 800, height: 820 });
  await expectNoAxeViolations(page, testInfo, 'keys-shortcuts');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(title).toBeFocused();
  // Nothing was answered by the keys pressed inside the dialog.
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
});

test('Esc leaves the reason box for the card, whose keys then work again', async ({ app: page, served }) => {
  await park(served, 2);
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  await page.locator('.inbox-detail .card-title').focus();
  await page.keyboard.press('r');
  const box = page.getByRole('textbox', { name: 'Reason for denying (optional)' });
  await expect(box).toBeFocused();
  await page.keyboard.type('not now');
  await page.keyboard.press('Escape');
  await expect(page.locator('.inbox-detail .card-title')).toBeFocused();
  await expect(box).toHaveValue('not now');
  await page.keyboard.press('d');
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
});

test('after Resume, focus goes to the Stop all button, not the page body', async ({ app: page, served }, testInfo) => {
  await park(served, 1);
  await page.getByRole('button', { name: 'Stop all' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Stop everything' }).click();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('button', { name: 'Stop all' })).toBeFocused();
  await expectNoAxeViolations(page, testInfo, 'keys-after-resume');
});
