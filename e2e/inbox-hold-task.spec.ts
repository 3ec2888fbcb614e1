// Issue 23 item 8: the orchestration hold card names the delegated task by its words (what the person is asked
// to let happen, and for which task), not by its id.
import { test, expect, bash, delegate, lastResult } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

const TASK = 'Write the release notes for 2.4\nand check them.';

for (const width of [1280, 800]) {
  test(`at ${width} px the hold card says which delegated task waits, in its words`, async ({ app: page, served }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await served.agent('lead', (req, i) => (i === 0 ? { toolCalls: [delegate('mid', TASK)] } : { text: `lead read: ${lastResult(req)}` }));
    await served.agent('mid', (req) =>
      lastResult(req).includes('"hop_held"')
        ? { text: 'waiting for a person' }
        : req.toolResults.length
          ? { text: 'done' }
          : { toolCalls: [bash('echo notes')] },
    );
    await served.openGate(['lead'], true);
    await served.call('runsStart', { agent: 'lead', prompt: 'Get mid to write the notes.' });
    const card = page.getByRole('article');
    await expect(card).toContainText('mid wants to use bash');
    const message = card.locator('.card-message');
    await expect(message).toContainText(
      'It is part of the task "Write the release notes for 2.4 and check them." that "lead" delegated, which waits on this answer.',
    );
    await expect(message).not.toContainText(/task_[0-9a-f]{8}/);
    // Keyboard alone: the card's Deny is reached and pressed without a pointer.
    await expectNoAxeViolations(page, testInfo, `hold-task-${width}`);
    await card.getByRole('button', { name: 'Deny', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('pending-count')).toHaveText('0 pending', { timeout: 10_000 });
  });
}
