// A long command never fills the card: the title is clamped, and the whole command is in a scrollable code
// block with its lines, so Approve stays in the window.
import { test, expect } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

const script = Array.from({ length: 33 }, (_, i) => `echo "step ${i + 1}: ${'building the thing '.repeat(3).trim()}"`).join('\n');

for (const width of [1280, 800])
  test(`a 33-line script: a clamped title, every line in the code block, Approve in the window (${width} px)`, async ({ app: page, served }, testInfo) => {
    await page.setViewportSize({ width, height: 820 });
    const run = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
    await served.call('runsAppend', { run_id: run.id, tool: 'bash', input: { command: script } });
    const card = page.getByRole('article');
    const title = card.getByRole('heading', { level: 2 });
    await expect(title).toContainText('echo "step 1: building the thing');
    await expect(title).toContainText('(+32 lines)');
    expect((await title.boundingBox())!.height).toBeLessThan(120);
    const code = card.getByRole('region', { name: 'Command (33 lines)' }).locator('pre');
    await expect(code.locator('.code-line')).toHaveCount(33);
    await expect(code.locator('.code-line').nth(32)).toContainText('step 33:');
    expect(await code.evaluate((e) => e.scrollHeight > e.clientHeight)).toBe(true);
    await expect(card.getByRole('button', { name: 'Approve', exact: true })).toBeInViewport();
    await expectNoAxeViolations(page, testInfo, 'long-command');
  });
