// Filters never trap a person: every filter in force is a chip that removes it, and a group filter whose
// chip left with its last card goes with it.
import { test, expect } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

test('a group filter whose cards were all answered is removed with its chip; every filter is a removable chip', async ({ app: page, served }, testInfo) => {
  const a = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  const b = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  for (let i = 0; i < 3; i++) await served.call('runsAppend', { run_id: a.id, tool: 'bash', input: { command: `echo a${i}` } });
  for (let i = 0; i < 5; i++) await served.call('runsAppend', { run_id: b.id, tool: 'bash', input: { command: `echo b${i}` } });
  await expect(page.getByTestId('pending-count')).toHaveText('8 pending');
  const list = page.getByRole('list', { name: 'Pending cards' });
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('run');
  const groups = page.getByRole('list', { name: 'Groups by run' });
  await groups
    .getByRole('button')
    .filter({ has: page.locator('.count', { hasText: /^3$/ }) })
    .click();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  const chips = page.getByRole('list', { name: 'Filters in force' });
  await expect(chips.getByRole('button', { name: /^Remove filter run: / })).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'inbox with a run filter');

  // Answer the group's three cards elsewhere (another window): its chip leaves, and so does its filter.
  const ids = await served.call('inboxIds', { run_id: a.id });
  await served.call('inboxBulk', { ids, action: 'approve' });
  await expect(page.getByTestId('pending-count')).toHaveText('5 pending');
  await expect(list.getByRole('listitem')).toHaveCount(5);
  await expect(page.getByRole('status').filter({ hasText: 'its filter was removed' })).toBeVisible();
  await expect(chips).toHaveCount(0);

  // A text filter that matches nothing says so, with its chip and a way back.
  await page.getByRole('searchbox', { name: 'Filter by tool or target' }).fill('nothing-like-this');
  await page.getByRole('searchbox', { name: 'Filter by tool or target' }).press('Enter');
  await expect(page.getByText('No pending card matches this filter.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('autonomy');
  await expect(chips.getByRole('button', { name: 'Remove filter text: “nothing-like-this”' })).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'inbox with no match');
  await chips.getByRole('button', { name: 'Remove filter text: “nothing-like-this”' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(5);
  await expect(page.getByRole('searchbox', { name: 'Filter by tool or target' })).toHaveValue('');
  await chips.getByRole('button', { name: 'Remove filter kind: autonomy' }).click();
  await expect(chips).toHaveCount(0);
});
