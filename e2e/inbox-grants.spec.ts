// Issue 23 item 4: trust scoped to calls like this one, every standing grant in one place (its scope, its end,
// one button to take it back), and the agent page's "Test a call" saying what session trust does.
import { test, expect, bash } from '../test/support/e2e-fixtures.js';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

/** Press Enter on a control, as a keyboard user does once focus reaches it. */
const press = async (page: Page, locator: ReturnType<Page['locator']>) => {
  await locator.focus();
  await page.keyboard.press('Enter');
};
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

for (const width of [1280, 800]) {
  test(`at ${width} px: "Trust this command" grants npm test again but not npm test && rm -rf ~; Grants lists it and takes it back`, async ({
    app: page,
    served,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const calls = [bash('npm test'), bash('npm test'), bash('npm test && rm -rf ~')];
    await served.agent('builder', (req, i) => (i < calls.length ? { toolCalls: [calls[i]] } : { text: 'done' }), 'ask');
    // A rule saved from a card earlier: an allow rule in the profile, listed beside session trust.
    const profile = await served.call('agentsGet', { name: 'builder' });
    await served.call('agentsReplace', {
      name: 'builder',
      mode: 'ask',
      model: profile.model,
      approval_rules: [{ tool: 'read', path: 'path', match: 'src/*', verdict: 'allow' }],
    });
    await served.call('runsStart', { agent: 'builder', prompt: 'Test it.' });

    const card = page.getByRole('article');
    await expect(card.getByRole('heading', { level: 2 })).toContainText('npm test');
    await expect(card.getByText(/keep approving until NEXUS quits/)).toBeVisible();
    await expectNoAxeViolations(page, testInfo, `grants-card-${width}`);
    await press(page, card.getByRole('button', { name: 'Trust this command' }));
    // The second `npm test` runs under the grant; the compound command asks.
    await expect(card.getByRole('heading', { level: 2 })).toContainText('npm test && rm -rf ~', { timeout: 15_000 });
    await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
    const rows = (await served.call('runsShow', { id: (await served.call('runsList', {}))[0].id })).rows;
    expect(rows.map((r) => [(r.input as { command: string }).command, r.granted_by ?? null])).toEqual([
      ['npm test', 'person'],
      ['npm test', 'trust'],
      ['npm test && rm -rf ~', null],
    ]);

    // Every standing grant in one place, reached from the card.
    await press(page, card.getByRole('link', { name: 'Settings ▸ Agents ▸ Grants' }));
    await expect(page.getByRole('heading', { name: 'Standing grants' })).toBeVisible();
    const trust = page.getByRole('list', { name: 'Session trust grants' });
    await expect(trust.getByRole('listitem')).toHaveCount(1);
    await expect(trust).toContainText('builder');
    await expect(trust).toContainText('bash calls with command "npm test" exactly');
    await expect(trust).toContainText('ends when NEXUS quits');
    const ruleList = page.getByRole('list', { name: 'Allow rules' });
    await expect(ruleList).toContainText('read where path matches "src/*"');
    await expect(ruleList).toContainText('Until removed');
    expect(await sideways(page), 'the Grants page scrolls sideways').toBe(false);
    await expectNoAxeViolations(page, testInfo, `grants-page-${width}`);

    // The agent page's tester says what the grant does.
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByText('builder').first().click();
    const tester = page.getByRole('region', { name: 'Test a call' });
    await tester.getByLabel('Test input').fill('{"command": "npm test"}');
    await expect(tester.getByRole('status', { name: 'Test outcome' })).toContainText('granted');
    await expect(tester.getByTestId('tester-trust')).toContainText('bash calls with command "npm test" exactly');
    await expectNoAxeViolations(page, testInfo, `grants-tester-${width}`);
    await tester.getByLabel('Test input').fill('{"command": "npm test && rm -rf ~"}');
    await expect(tester.getByRole('status', { name: 'Test outcome' })).toContainText('parked');

    // One click takes each back.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Grants' }).click();
    await press(page, trust.getByRole('button', { name: /Take back builder's trust/ }));
    await expect(page.getByTestId('grants-note')).toHaveText("Taken back: builder's calls like that one ask you again.");
    await expect(page.getByText('Nothing is trusted for this session.')).toBeVisible();
    expect((await served.call('trustList', {})).grants).toEqual([]);
    await press(page, ruleList.getByRole('button', { name: /Remove builder's rule 0/ }));
    await expect(page.getByText('No agent has an allow rule.')).toBeVisible();
    expect((await served.call('agentsGet', { name: 'builder' })).approval_rules ?? []).toEqual([]);
    await expectNoAxeViolations(page, testInfo, `grants-empty-${width}`);

    // Revoked: the tester parks the command again.
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByText('builder').first().click();
    await tester.getByLabel('Test input').fill('{"command": "npm test"}');
    await expect(tester.getByRole('status', { name: 'Test outcome' })).toContainText('parked');
    await expect(tester.getByTestId('tester-trust')).toHaveCount(0);
  });
}
