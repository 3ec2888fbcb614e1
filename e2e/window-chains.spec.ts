// Chains as a picture you can follow, the demo banner on one line, and the welcome reachable from Help.
import { test, expect, shot } from './fixtures.js';

test('the Chains view draws each chain as agents and hops, coloured by verdict, the denial in words, linked to runs', async ({ app: page }, testInfo) => {
  await page.getByRole('button', { name: 'Play the offline demo' }).click();
  const banner = page.getByRole('note', { name: 'Offline demo' });
  const line = await banner.locator('.demo-line').boundingBox();
  expect(line!.height).toBeLessThan(40); // one line at 1280 px
  await page.getByRole('article').getByRole('button', { name: 'Approve' }).click();

  await page.getByRole('link', { name: 'Chains' }).click();
  const chain = page.getByRole('list', { name: 'Chains' }).getByRole('listitem').first();
  await expect(chain.getByRole('heading', { level: 2 })).toContainText('demo-planner → demo-builder');
  const denied = chain.locator('.hop-node.verdict-denied').first();
  await expect(denied).toContainText('denied by the gate');
  await expect(denied).toContainText('no nexus.orchestration entitlement');
  await expect(denied).toContainText('orchestration_not_entitled');
  await expect(chain.locator('.hop-node.verdict-allowed, .hop-node.verdict-approved').first()).toBeVisible();
  await shot(page, testInfo, 'chains-view');
  await chain.getByRole('button', { name: /^Open demo-builder's run$/ }).first().click();
  await expect(page.locator('.run-detail h1')).toContainText('demo-builder');

  // The banner's link lands on the Recent chains list itself (scrolled to), in Settings.
  await banner.getByRole('button', { name: 'Recent chains' }).click();
  await expect(page.getByRole('region', { name: 'Recent chains' })).toBeInViewport();

  // With agents present the first-run welcome is gone from the Inbox; Help brings it back.
  await page.getByRole('link', { name: /^Inbox/ }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to NEXUS' })).toHaveCount(0);
  await page.getByRole('banner').getByRole('button', { name: 'Help' }).click();
  await page.getByRole('button', { name: 'Welcome and the offline demo' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to NEXUS' })).toBeFocused();
  await shot(page, testInfo, 'welcome-from-help');
  await page.getByRole('button', { name: 'Close the welcome' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to NEXUS' })).toHaveCount(0);
});
