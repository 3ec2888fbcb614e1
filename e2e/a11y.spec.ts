// WCAG 2.2 AA, checked by axe-core on every main view and state, in light and in dark: any violation fails.
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function audit(page: Page, testInfo: TestInfo, name: string) {
  await page.waitForTimeout(150); // transitions (switch knobs, fades) end before colours are read
  const r = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = r.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .slice(0, 4)
        .map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join(' ')}`)
        .join('\n    ')}`,
  );
  if (found.length) await testInfo.attach(`axe-${name}.txt`, { body: found.join('\n'), contentType: 'text/plain' });
  expect(found, `axe violations in ${name}`).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
    });

    test(`every view and state passes axe (${scheme})`, async ({ app: page, served }, testInfo) => {
      test.setTimeout(240_000);
      await expect(page.getByRole('heading', { name: 'Nothing waits for you' })).toBeVisible();
      await audit(page, testInfo, `${scheme}-inbox-empty`);

      await page.getByRole('link', { name: 'Runs' }).click();
      await audit(page, testInfo, `${scheme}-runs-empty`);
      await page.getByRole('link', { name: 'Agents' }).click();
      await audit(page, testInfo, `${scheme}-agents-empty`);
      for (const section of ['Orchestration', 'Models', 'About']) {
        await page.getByRole('link', { name: 'Settings' }).click();
        await page
          .getByRole('button', { name: section, exact: true })
          .or(page.getByRole('link', { name: section, exact: true }))
          .first()
          .click();
        await audit(page, testInfo, `${scheme}-settings-${section.toLowerCase()}`);
      }

      await page.getByRole('link', { name: 'Chains' }).click();
      await audit(page, testInfo, `${scheme}-chains-empty`);

      // Cards: an autonomy card (dangerous, so the note shows), the allow-rule panel, the danger confirm, bulk.
      await served.agent(
        'builder',
        () => ({
          toolCalls: [
            { name: 'bash', input: { command: 'rm -rf build' } },
            { name: 'bash', input: { command: 'ls -la' } },
          ],
        }),
        'ask',
      );
      await served.call('runsStart', { agent: 'builder', prompt: 'Clean.' });
      await page.getByRole('link', { name: /^Inbox/ }).click();
      await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
      await audit(page, testInfo, `${scheme}-inbox-card`);
      await page.getByRole('article').getByRole('button', { name: 'Allow calls like this…' }).click();
      await expect(page.getByRole('region', { name: 'Allow calls like this from now on' })).toBeVisible();
      await audit(page, testInfo, `${scheme}-inbox-allow-rule`);
      await page
        .getByRole('article')
        .getByRole('button', { name: /^Approve/ })
        .click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await audit(page, testInfo, `${scheme}-danger-confirm`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Select all matching' }).click();
      await page.getByRole('button', { name: 'Approve 2' }).click();
      await audit(page, testInfo, `${scheme}-bulk-confirm`);
      await page.keyboard.press('Escape');
      await page.getByRole('combobox', { name: 'Group by' }).selectOption('agent');
      await expect(page.getByRole('list', { name: 'Groups by agent' })).toBeVisible();
      await audit(page, testInfo, `${scheme}-inbox-grouped`);

      await page.getByRole('link', { name: 'Runs' }).click();
      await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
      await expect(page.locator('.run-detail h1')).toBeVisible();
      await audit(page, testInfo, `${scheme}-run-detail`);
      await page.getByRole('link', { name: 'Agents' }).click();
      await page
        .getByRole('button', { name: /builder/ })
        .first()
        .click();
      await audit(page, testInfo, `${scheme}-agent-editor`);
      await page.getByRole('banner').getByRole('button', { name: 'Help', exact: true }).click();
      await page.getByRole('button', { name: 'Welcome and the offline demo' }).click();
      await audit(page, testInfo, `${scheme}-welcome-from-help`);
      await page.getByRole('button', { name: 'Close the welcome' }).click();

      // Stop all engaged: the red bar on a view, and the Orchestration page.
      await page.getByRole('banner').getByRole('button', { name: 'Stop all', exact: true }).click();
      await audit(page, testInfo, `${scheme}-stop-confirm`);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Stop everything' }).click();
      await expect(page.getByRole('region', { name: /Stop all is engaged/ })).toBeVisible();
      await audit(page, testInfo, `${scheme}-stop-engaged-agents`);
      await page.getByRole('link', { name: 'Settings' }).click();
      await audit(page, testInfo, `${scheme}-stop-engaged-orchestration`);
      await shot(page, testInfo, `a11y-${scheme}-stop-engaged`);
    });
  });
}
