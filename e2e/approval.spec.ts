// Autonomy cards end to end: a scripted model (real HTTP) asks for a tool call, the agent's ask mode parks it,
// the person answers in the window, and the run goes on (or reads the refusal).
import { test, expect, shot, bash, lastResult } from '../test/support/e2e-fixtures.js';
import type { Page } from '@playwright/test';

async function startRun(page: Page, agent: string, prompt: string) {
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('form', { name: 'Start a run' }).getByRole('combobox', { name: 'Agent' }).selectOption(agent);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Start run' }).click();
}

test('approve a parked card and see the run go on', async ({ app: page, served }, testInfo) => {
  await served.agent('builder', (req, i) => (i === 0 ? { toolCalls: [bash('echo built')] } : { text: `done: ${lastResult(req).trim()}` }), 'ask');
  await startRun(page, 'builder', 'Build it.');

  await page.getByRole('link', { name: /Inbox/ }).click();
  const card = page.getByRole('article');
  await expect(card).toContainText('builder wants to use bash');
  await expect(card).toContainText("Asked by builder's autonomy mode (ask)");
  await expect(card.getByText('echo built').first()).toBeVisible();
  await expect(card).toContainText(/2[34] h \d\d min left/);
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  await expect(card.getByRole('button', { name: 'Trust this command' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Trust builder' })).toBeVisible();
  await shot(page, testInfo, 'inbox-autonomy-card');

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await expect(page.getByRole('heading', { name: 'Nothing waits for you' })).toBeVisible();

  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await expect(page.locator('.run-detail h1')).toContainText('succeeded');
  await expect(page.getByText('done: built')).toBeVisible();
  await expect(page.locator('.rows')).toContainText('approved by you in the browser');
  await shot(page, testInfo, 'run-detail-approved');
});

test('deny a parked card with a reason and see the call fail with it', async ({ app: page, served }, testInfo) => {
  await served.agent('cleaner', (req, i) => (i === 0 ? { toolCalls: [bash('rm -rf build')] } : { text: `I was told: ${lastResult(req)}` }), 'ask');
  await startRun(page, 'cleaner', 'Clean up.');
  await page.getByRole('link', { name: /Inbox/ }).click();
  const card = page.getByRole('article');
  await expect(card).toContainText('rm -rf build');
  await card.getByRole('textbox', { name: 'Reason for denying (optional)' }).fill('not on a Friday');
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');

  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  const rows = page.locator('.rows');
  await expect(rows).toContainText('failed');
  await expect(rows).toContainText('approval_denied');
  await expect(rows).toContainText('not on a Friday');
  await expect(page.locator('.run-detail')).toContainText(/I was told: .*not on a Friday/);
  await shot(page, testInfo, 'run-detail-denied');
});

test('keyboard: j/k move between cards, a approves, d denies', async ({ app: page, served }) => {
  const run = await served.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
  for (const c of ['echo one', 'echo two', 'echo three']) await served.call('runsAppend', { run_id: run.id, tool: 'bash', input: { command: c } });
  await expect(page.getByTestId('pending-count')).toHaveText('3 pending');
  const card = page.getByRole('article');
  await expect(card).toContainText('echo one');
  await page.keyboard.press('j');
  await expect(card).toContainText('echo two');
  await page.keyboard.press('k');
  await expect(card).toContainText('echo one');
  await page.setViewportSize({ width: 1280, height: 600 }); // the answer buttons sit near the bottom edge
  await page.keyboard.press('a');
  await expect(page.getByTestId('pending-count')).toHaveText('2 pending');
  await expect(card).toContainText('echo two');
  // The "Approved" toast does not cover the next card's answer buttons (it sat over them, bottom centre).
  const toast = page.locator('.toast');
  // The toast names the card it was about; focus is on the next card (not dropped to <body>).
  await expect(toast).toHaveText('Approved · your run · bash echo one');
  await expect(card.locator('.card-title')).toBeFocused();
  const [t, b] = [await toast.boundingBox(), await card.locator('.card-actions').boundingBox()];
  expect(t!.y + t!.height <= b!.y || t!.y >= b!.y + b!.height || t!.x >= b!.x + b!.width || t!.x + t!.width <= b!.x).toBe(true);
  await page.keyboard.press('d');
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  const detail = await served.call('runsShow', { id: run.id });
  expect(detail.rows.map((r) => [(r.input as { command: string }).command, r.state])).toEqual([
    ['echo one', 'succeeded'],
    ['echo two', 'failed'],
    ['echo three', 'needs_approval'],
  ]);
});

test('a question from an agent (the ask tool) is answered from the inbox and the run goes on', async ({ app: page, served }, testInfo) => {
  await served.agent('deployer', (req, i) =>
    i === 0 ? { toolCalls: [{ name: 'ask', input: { question: 'Which branch should I deploy?' } }] } : { text: `deploying ${lastResult(req).split('\n')[0]}` },
  );
  await served.call('runsStart', { agent: 'deployer', prompt: 'Deploy.' });
  const card = page.getByRole('article');
  await expect(card).toContainText('deployer asks you a question');
  await expect(card).toContainText('Which branch should I deploy?');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await card.getByRole('textbox', { name: 'Your answer' }).fill('release-2.4');
  await shot(page, testInfo, 'inbox-question');
  await card.getByRole('button', { name: 'Send answer' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await expect.poll(async () => (await served.call('runsList', {}))[0]?.final_answer, { timeout: 15_000 }).toBe('deploying release-2.4');
});

test('a standalone run: rows appended through the tasks door are granted by origin; Stop run cancels it', async ({ app: page }, testInfo) => {
  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('combobox', { name: 'Standalone run mode' }).locator('option:checked')).toHaveText('ask mode');
  await page.getByRole('combobox', { name: 'Standalone run mode' }).selectOption('rules');
  await page.getByRole('button', { name: 'New standalone run' }).click();
  await expect(page.locator('.run-detail h1')).toContainText('Standalone run');
  // Input that is not JSON is named as such, below the form (the input keeps its width).
  await page.getByRole('textbox', { name: 'Input (JSON)' }).fill('{"command": "echo');
  await page.getByRole('button', { name: 'Append row' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /^The input is not JSON: / })).toBeVisible();
  await page.getByRole('textbox', { name: 'Input (JSON)' }).fill('{"command": "echo from the tasks door"}');
  await page.getByRole('button', { name: 'Append row' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Appended row_…[0-9a-f]{6}: see it in the list above\.$/ })).toBeVisible();
  expect((await page.getByRole('textbox', { name: 'Input (JSON)' }).boundingBox())!.width).toBeGreaterThan(250);
  const rows = page.locator('.rows');
  await expect(rows).toContainText('author');
  await expect(rows).toContainText('succeeded');
  await expect(rows).toContainText('granted by origin');
  await shot(page, testInfo, 'standalone-run');
  await page.getByRole('button', { name: 'Stop run' }).click();
  await expect(page.locator('.run-detail h1')).toContainText('canceled');
});

test("Trust the agent (for this session) approves the card and grants that agent's later autonomy prompts", async ({ app: page, served }) => {
  await served.agent(
    'helper',
    (req, i) => (i === 0 ? { toolCalls: [bash('echo one')] } : i === 1 ? { toolCalls: [bash('echo two')] } : { text: 'both done' }),
    'ask',
  );
  await served.call('runsStart', { agent: 'helper', prompt: 'Two steps.' });
  const card = page.getByRole('article');
  await expect(card).toContainText('echo one');
  await card.getByRole('button', { name: 'Trust helper' }).click();
  await expect.poll(async () => (await served.call('runsList', {}))[0]?.status, { timeout: 15_000 }).toBe('succeeded');
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  const run = await served.call('runsShow', { id: (await served.call('runsList', {}))[0].id });
  expect(run.rows.map((r) => [(r.input as { command: string }).command, r.state, r.granted_by])).toEqual([
    ['echo one', 'succeeded', expect.stringMatching(/person|trust/)],
    ['echo two', 'succeeded', 'trust'],
  ]);
});

test('a run whose model cannot be reached shows the error, and says it ended without tool calls', async ({ app: page, served }) => {
  await served.call('agentsSave', { name: 'offline', mode: 'ask', model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:1/v1', model: 'm' } });
  await served.call('runsStart', { agent: 'offline', prompt: 'Say hi.' });
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByRole('list', { name: 'Runs' }).getByRole('button').first().click();
  await expect(page.locator('.run-detail h1')).toContainText('failed');
  await expect(page.locator('.run-detail')).toContainText('could not be reached');
  await expect(page.locator('.run-detail')).toContainText('No tool calls: the run ended without any.');
});
