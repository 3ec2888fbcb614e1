// Issue 23 item 10: at 800 px wide the Chains view, the agent editor and Models fit: nothing scrolls sideways.
import { test, expect } from '../test/support/e2e-fixtures.js';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

/** The widest element that overflows the viewport, or null when the page fits. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= w) {
      const wide = [...document.querySelectorAll<HTMLElement>('body *')].find(
        (e) =>
          e.scrollWidth > e.clientWidth + 1 &&
          getComputedStyle(e).overflowX === 'auto' &&
          e.closest('main, .settings-body, .agents, .chains') &&
          !e.matches('pre, code, .vlist, .rows, table, .target, textarea'),
      );
      return wide ? `${wide.tagName}.${wide.className} scrolls sideways` : null;
    }
    return `page is ${document.documentElement.scrollWidth} px wide in ${w}`;
  });

test('at 800 px Chains, the agent editor and Models do not scroll sideways', async ({ app: page, served }, testInfo) => {
  await served.agent('builder', () => ({ text: 'ok' }));
  await page.setViewportSize({ width: 800, height: 820 });
  await page.getByRole('link', { name: 'Chains' }).click();
  await page.waitForTimeout(300);
  expect(await overflow(page), 'Chains').toBeNull();
  await expectNoAxeViolations(page, testInfo, 'width-chains');
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByText('builder').first().click();
  await page.waitForTimeout(300);
  expect(await overflow(page), 'agent editor').toBeNull();
  await expectNoAxeViolations(page, testInfo, 'width-agent-editor');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Models' }).click();
  await page.waitForTimeout(300);
  expect(await overflow(page), 'Models').toBeNull();
  await expectNoAxeViolations(page, testInfo, 'width-models');
});
