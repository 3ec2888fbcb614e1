// Item 8 and 10 of issue 23: one hold id shown one way in Runs, Delegated tasks and the run detail (the
// short form, whole in its title), and the Tasks table's link named by what it shows (axe clean).
import { test, expect, bash, delegate, lastResult } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';
import { shortId } from '../renderer/src/views/inbox/cards.js';

const leadScript = (req: Parameters<typeof lastResult>[0], i: number) =>
  i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${lastResult(req)}` };
const midScript = (req: Parameters<typeof lastResult>[0]) =>
  lastResult(req).includes('"hop_held"') ? { text: 'waiting for a person' } : req.toolResults.length ? { text: 'done' } : { toolCalls: [bash('echo built')] };

test('a hold id reads the same in Runs, Delegated tasks and the run detail; the Tasks table passes axe', async ({ app: page, served }, testInfo) => {
  await served.agent('lead', leadScript);
  await served.agent('mid', midScript);
  await served.openGate(['lead'], true);
  await served.call('runsStart', { agent: 'lead', prompt: 'Get mid to build.' });
  await expect(page.getByRole('article')).toContainText('mid wants to use bash');
  const hold = (await served.call('inboxList', {})).find((c) => c.kind === 'orchestration')!;
  const short = shortId(hold.id);

  await page.getByRole('link', { name: 'Runs' }).click();
  const midItem = page
    .getByRole('list', { name: 'Runs' })
    .getByRole('button')
    .filter({ has: page.locator('strong', { hasText: /^mid$/ }) });
  await expect(midItem).toContainText(`on hold ${short} (hop 2)`);
  await midItem.click();
  const detail = page.locator('.run-detail').getByRole('status').filter({ hasText: 'Waiting on orchestration hold' });
  await expect(detail.locator('code')).toHaveText(short);
  await page.locator('summary', { hasText: 'Delegated tasks' }).click();
  const row = page.getByRole('table').getByRole('row').nth(1);
  await expect(row.locator('code[title]').last()).toHaveText(short);
  await expect(row.locator('code[title]').last()).toHaveAttribute('title', hold.id);
  await expectNoAxeViolations(page, testInfo, 'runs-tasks-table');
  await page.setViewportSize({ width: 800, height: 820 });
  await expectNoAxeViolations(page, testInfo, 'runs-tasks-table');
});
