// axe over the state a spec reached, in light and in dark, with a screenshot of each: any violation fails.
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect, shot } from './e2e-fixtures.js';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(150); // transitions end before colours are read
    const r = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    const found = r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}: ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
    await shot(page, testInfo, `${name}-${colorScheme}-${page.viewportSize()?.width ?? 0}`);
    expect(found, `axe violations in ${name} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
