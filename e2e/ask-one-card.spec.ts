// Under mode ask, one question is one card (issue 25 item 6): the `ask` call parks as an autonomy card, and
// that card takes the answer, approving the call and answering its question in one step, with no question
// card after it. Scripted model over real HTTP, the real kernel behind `nexus serve`'s browser host.
import { test, expect, lastResult } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

test('an ask call parked by mode ask is approved and answered on its own card: no second card, the model reads the answer', async ({
  app: page,
  served,
}, testInfo) => {
  await served.agent(
    'deployer',
    (req, i) =>
      i === 0
        ? { toolCalls: [{ name: 'ask', input: { question: 'Which branch should I deploy?' } }] }
        : { text: `deploying ${lastResult(req).split('\n')[0]}` },
    'ask',
  );
  await served.call('runsStart', { agent: 'deployer', prompt: 'Deploy.' });
  await page.getByRole('link', { name: /Inbox/ }).click();
  const card = page.getByRole('article');
  await expect(card).toContainText('deployer wants to use ask');
  await expect(card).toContainText('Which branch should I deploy?');
  await expect(card.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
  const box = card.getByRole('textbox', { name: 'Your answer to its question (approves the call)' });
  await box.fill('release-2.4');
  await expectNoAxeViolations(page, testInfo, 'ask-one-card');
  await card.getByRole('button', { name: 'Approve and answer' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await expect.poll(async () => (await served.call('runsList', {}))[0]?.final_answer, { timeout: 15_000 }).toBe('deploying release-2.4');
  expect(await served.call('inboxList', {})).toEqual([]);
});
