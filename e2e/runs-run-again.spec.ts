// Issue 23 item 9: a run canceled by Stop all can be started again: "Run again" starts a new run of the same
// agent with the same prompt and opens it; the canceled run stays canceled.
import { test, expect, bash } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

test('Run again on a run canceled by Stop all starts a new run with the same agent and prompt', async ({ app: page, served }, testInfo) => {
  await served.agent('asker', (req) => (req.toolResults.length ? { text: 'ok' } : { toolCalls: [bash('echo hi')] }), 'ask');
  await served.call('runsStart', { agent: 'asker', prompt: 'Say hi.' });
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  await page.getByRole('button', { name: 'Stop all' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Stop everything' }).click();
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await expect(page.locator('.run-detail h1')).toContainText('canceled');
  const again = page.getByRole('button', { name: 'Run again' });
  await expectNoAxeViolations(page, testInfo, 'run-again');
  await again.click();
  await expect(page.locator('.run-detail h1')).not.toContainText('canceled');
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  const list = await served.call('runsList', {});
  expect(list.map((r) => [r.agent, r.prompt, r.status]).sort()).toEqual(
    [
      ['asker', 'Say hi.', 'canceled'],
      ['asker', 'Say hi.', 'running'],
    ].sort(),
  );
});
