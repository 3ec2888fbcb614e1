// "Allow calls like this" never suggests a rule that grants a compound command: a prefix glob comes with the
// compound-command guards, the live tester shows what the saved rules do to the pending cards, and saving
// answers the card.
import { test, expect, bash } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';
import { outcomesUnder } from '../shared/rules/suggest.js';
import type { ApprovalRule } from '../shared/types.js';

test('the suggestion for `npm test -- --runInBand` keeps `npm test && rm -rf ~` asking, in the tester and in the next run', async ({
  app: page,
  served,
}, testInfo) => {
  let run = 0;
  await served.agent(
    'builder',
    (req, i) => {
      if (i === 0 && req.toolResults.length === 0 && run++ === 0)
        return { toolCalls: [bash('npm test -- --runInBand'), bash('npm test && rm -rf ~'), bash('npm test -- --watch')] };
      if (req.toolResults.length === 0) return { toolCalls: [bash('npm test && touch smuggled')] };
      return { text: 'done' };
    },
    'ask',
  );
  await served.call('runsStart', { agent: 'builder', prompt: 'Run the tests.' });
  await expect(page.getByTestId('pending-count')).toHaveText('3 pending');
  const card = page.getByRole('article');
  await expect(card.getByRole('heading', { level: 2 })).toContainText('npm test -- --runInBand');
  await card.getByRole('button', { name: 'Allow calls like this…' }).click();
  const panel = card.getByRole('region', { name: 'Allow calls like this from now on' });
  await expect(panel.getByRole('textbox', { name: /Command/ })).toHaveValue('npm test *');
  const rules = panel.getByRole('list', { name: 'The rules to add' });
  for (const guard of ['*;*', '*&*', '*|*', '*$(*', '*`*', '*>*', '*<*', '*\\n*']) await expect(rules).toContainText(`"match":"${guard}","verdict":"ask"`);
  // The live tester: this call allowed, `--watch` allowed, the compound command still asks.
  await expect(panel.getByTestId('rule-reach')).toHaveText(
    "With builder's rules and these (ask mode), this call is allowed; of builder's other 2 pending cards shown, 1 allowed, 1 still ask.",
  );
  await expect(panel.getByRole('list', { name: 'Pending cards these rules allow' })).toHaveText('npm test -- --watch');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await expectNoAxeViolations(page, testInfo, 'allow-rule-guarded');

  await panel.getByRole('button', { name: 'Save and approve this call' }).click();
  // Saving answered the card.
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  const saved = (await served.call('agentsGet', { name: 'builder' })).approval_rules as ApprovalRule[];
  expect(saved[0]).toEqual({ tool: 'bash', path: 'command', match: 'npm test *', verdict: 'allow' });
  expect(saved).toHaveLength(9);
  const verdict = outcomesUnder(saved, 'ask', [{ id: 'x', tool: 'bash', input: { command: 'npm test && rm -rf ~' } }]).get('x');
  expect(verdict).toBe('asks');

  // The kernel agrees: in the next run, a compound command behind the allowed prefix still parks.
  await page.getByRole('button', { name: 'Select all matching' }).click();
  await page.getByRole('button', { name: 'Deny 2' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deny 2' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await served.call('runsStart', { agent: 'builder', prompt: 'Again.' });
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  await expect(card.getByRole('heading', { level: 2 })).toContainText('npm test && touch smuggled');
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
});
