// The Runs view pages: the list and a run's rows load a first page, and "Load more" (a real button, reached
// with Tab, answered with Enter) brings the next, says what it did in a polite live region, and when the list
// ends hands the focus to the first item it brought.
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

test('the runs list and a long run load a page at a time; Load more works by keyboard and is announced', async ({ app: page, served }, testInfo) => {
  test.setTimeout(120_000);
  // The oldest run is a long one (205 parked rows: nothing runs); 105 newer runs push it to the second page.
  const long = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  for (let i = 0; i < 205; i++) await served.call('runsAppend', { run_id: long.id, tool: 'bash', input: { command: `echo row-${i}` } });
  for (let i = 0; i < 105; i++) await served.call('runsCreate', { mode: 'bypass' });

  await page.getByRole('link', { name: 'Runs' }).click();
  const list = page.getByRole('list', { name: 'Runs' });
  await expect(list.getByRole('listitem')).toHaveCount(100);
  await expect(page.locator(`button[data-run-id="${long.id}"]`)).toHaveCount(0);

  // Tab from the last run reaches the button; Enter loads the rest.
  await list.getByRole('button').last().focus();
  await page.keyboard.press('Tab');
  const moreRuns = page.getByRole('button', { name: 'Load more runs' });
  await expect(moreRuns).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('listitem')).toHaveCount(106);
  await expect(page.getByRole('status').filter({ hasText: 'more run' })).toHaveText('Loaded 6 more runs; 106 shown, all runs loaded.');
  await expect(moreRuns).toHaveCount(0);
  // The list ended and the button went: the focus is on the first run the page brought, not lost.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-run-id'))).toMatch(/^run_/);

  await page.locator(`button[data-run-id="${long.id}"]`).click();
  const rows = page.locator('tr.row-line');
  await expect(rows).toHaveCount(200);
  await expect(page.locator('.run-detail .page-head')).toContainText('200 rows shown, more to load');
  const moreRows = page.getByRole('button', { name: 'Load more rows' });
  await moreRows.focus();
  await shot(page, testInfo, 'run-rows-load-more');
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(205);
  await expect(page.getByRole('status').filter({ hasText: 'more row' })).toHaveText('Loaded 5 more rows; 205 shown, all rows loaded.');
  await expect(rows.last()).toContainText('echo row-204');
  await expect(moreRows).toHaveCount(0);
  // The focus is on the first row the page brought (its first button: a parked row has more than one).
  await expect(page.locator('tr[data-row-id]').nth(200).getByRole('button').first()).toBeFocused();
  await expect(page.locator('.run-detail .page-head')).not.toContainText('more to load');
});
