// Issue 23 item 9: after Models ▸ Test connection a new agent can be made from that model; Runs filters by
// agent, state and client, says when a filter hides every run and clears it.
import { test, expect } from '../test/support/e2e-fixtures.js';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

for (const width of [1280, 800]) {
  test(`at ${width} px a tested model becomes a new agent in two keystrokes`, async ({ app: page, served }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const model = await served.agent('existing', () => ({ text: 'pong' }));
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Models' }).click();
    await page.getByLabel('Base URL').fill(model.baseURL);
    await page.getByLabel('Model', { exact: true }).fill('scripted-fresh');
    await page.getByLabel('Model', { exact: true }).press('Enter'); // submits: Test connection
    await expect(page.getByTestId('model-test-result')).toContainText('Connected in');
    const make = page.getByRole('button', { name: 'Make an agent with this model…' });
    await expectNoAxeViolations(page, testInfo, `model-tested-${width}`);
    await make.focus();
    await page.keyboard.press('Enter');
    const editor = page.getByRole('form', { name: 'New agent' });
    await expect(editor).toBeVisible();
    await expect(editor.getByRole('status').filter({ hasText: 'filled in from Settings ▸ Models' })).toBeVisible();
    await expect(editor.getByLabel('Base URL')).toHaveValue(model.baseURL);
    await expect(editor.getByLabel('Model', { exact: true })).toHaveValue('scripted-fresh');
    expect(await sideways(page)).toBe(false);
    await expectNoAxeViolations(page, testInfo, `model-new-agent-${width}`);
    await editor.getByLabel('Name', { exact: true }).fill('fresh');
    await editor.getByLabel('Name', { exact: true }).press('Enter');
    await expect.poll(async () => (await served.call('agentsList', {})).map((a) => a.name)).toContain('fresh');
    const saved = await served.call('agentsGet', { name: 'fresh' });
    expect(saved.model).toMatchObject({ provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted-fresh' });
  });

  test(`at ${width} px Runs filters by agent, state and client, and says when nothing matches`, async ({ app: page, served }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await served.agent('alpha', () => ({ text: 'a done' }));
    await served.agent('beta', () => ({ text: 'b done' }));
    await served.call('runsStart', { agent: 'alpha', prompt: 'alpha one' });
    await served.call('runsStart', { agent: 'beta', prompt: 'beta one' });
    const standalone = await served.call('runsCreate', { mode: 'ask' });
    await expect.poll(async () => (await served.call('runsList', { status: 'succeeded' })).length, { timeout: 15_000 }).toBe(2);
    await page.getByRole('link', { name: 'Runs' }).click();
    const list = page.getByRole('list', { name: 'Runs' });
    await expect(list.getByRole('button')).toHaveCount(3);
    const filters = page.getByRole('group', { name: 'Filter runs' });

    await filters.getByLabel('Agent', { exact: true }).selectOption('alpha');
    await expect(list.getByRole('button')).toHaveCount(1);
    await expect(list).toContainText('alpha one');
    await filters.getByLabel('State', { exact: true }).selectOption('running');
    await expect(list).toContainText('No run matches these filters.');
    await expectNoAxeViolations(page, testInfo, `runs-filter-empty-${width}`);
    await filters.getByRole('button', { name: 'Clear 2 filters' }).focus();
    await page.keyboard.press('Enter');
    await expect(list.getByRole('button')).toHaveCount(3);

    await filters.getByLabel('State', { exact: true }).selectOption('running');
    await expect(list.getByRole('button')).toHaveCount(1);
    await expect(list.locator(`[data-run-id="${standalone.id}"]`)).toBeVisible();
    await filters.getByLabel('State', { exact: true }).selectOption('');
    await filters.getByLabel('Client', { exact: true }).selectOption('claude-code');
    await expect(list).toContainText('No run matches these filters.');
    await filters.getByLabel('Client', { exact: true }).selectOption('none');
    await expect(list.getByRole('button')).toHaveCount(3);
    expect(await sideways(page)).toBe(false);
    await expectNoAxeViolations(page, testInfo, `runs-filter-${width}`);
  });
}
