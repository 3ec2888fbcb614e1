// First run: a newcomer with no model plays the offline demo and, within a minute, answers a real card and
// reads a real chain — labelled as a demo, with the gate answering honestly (no entitlement: denied).
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

test('a newcomer plays the offline demo: a card to answer, then a chain to read', async ({ app: page }, testInfo) => {
  await expect(page.getByRole('heading', { name: 'Nothing waits for you' })).toBeVisible();
  await expect(page.getByText(/An approval card appears here/)).toBeVisible();
  // The welcome comes first, above the empty Inbox's explanation.
  const welcome = await page.getByRole('heading', { name: 'Welcome to NEXUS' }).boundingBox();
  const empty = await page.getByRole('heading', { name: 'Nothing waits for you' }).boundingBox();
  expect(welcome!.y).toBeLessThan(empty!.y);
  const bar = await page.locator('header.topbar').boundingBox();
  expect(welcome!.y - (bar!.y + bar!.height)).toBeGreaterThan(16); // not glued to the top bar
  await shot(page, testInfo, 'first-run');

  await page.getByRole('button', { name: 'Play the offline demo' }).click();
  const banner = page.getByRole('note', { name: 'Offline demo' });
  await expect(banner).toContainText('OFFLINE DEMO');
  await expect(banner).toContainText('not an AI');
  await expect(banner).toContainText('orchestration_not_entitled');
  // The end of the denied path is announced up front (a failed task, a Needs attention card).
  await expect(banner).toContainText('a Needs attention card appears');

  const card = page.getByRole('article');
  await expect(card).toContainText('demo-planner wants to use delegate_task');
  await expect(card).toContainText("Asked by demo-planner's autonomy mode (ask)");
  await shot(page, testInfo, 'demo-card');
  await card.getByRole('button', { name: 'Approve' }).click();

  await banner.getByRole('button', { name: 'Recent chains' }).click();
  const chains = page.getByRole('region', { name: 'Recent chains' });
  await expect(chains).toContainText('demo-planner');
  const hop2 = chains.getByRole('row').nth(2);
  await expect(hop2).toContainText('demo-builder');
  await expect(hop2).toContainText('write');
  await expect(hop2).toContainText('orchestration_not_entitled');
  await expect(hop2.locator('.denial-words')).toHaveText('no nexus.orchestration entitlement'); // the code in words, not only the code
  await shot(page, testInfo, 'demo-chain');

  // Without the entitlement the delegated task cannot be done: after its refusals it fails visibly.
  await page.getByRole('link', { name: /Inbox/ }).click();
  await expect(page.getByRole('article')).toContainText('Needs attention', { timeout: 20_000 });
  // Only the answer that works is offered: a failed delegated task is not retried from its card.
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(page.getByRole('article')).toContainText('Dismiss closes this card');
  await shot(page, testInfo, 'inbox-attention');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await expect(page.getByRole('status').filter({ hasText: /^Dismissed/ })).toBeVisible(); // the button's word, not "Abandoned"

  // The demo can be played again from the banner (the first-run panel is gone once the demo agents exist).
  await banner.getByRole('button', { name: 'Got it' }).click();
  await banner.getByRole('button', { name: 'Play the demo again' }).click();
  await expect(banner).toContainText('What happens next');
  await expect(page.getByRole('article')).toContainText('demo-planner wants to use delegate_task');
  await page.getByRole('article').getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');

  await banner.getByRole('button', { name: 'Remove the demo agents' }).click();
  await expect(banner).toHaveCount(0);
});
