// Chains as a picture you can follow, the demo banner on one line, and the welcome reachable from Help.
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

test('the Chains view draws each chain as agents and hops, coloured by verdict, the denial in words, linked to runs', async ({ app: page }, testInfo) => {
  await page.getByRole('button', { name: 'Play the offline demo' }).click();
  const banner = page.getByRole('note', { name: 'Offline demo' });
  const line = await banner.locator('.demo-line').boundingBox();
  expect(line!.height).toBeLessThan(40); // one line at 1280 px
  await page.getByRole('article').getByRole('button', { name: 'Approve' }).click();

  await page.getByRole('link', { name: 'Chains' }).click();
  const chain = page.getByRole('list', { name: 'Chains' }).getByRole('listitem').first();
  await expect(chain.getByRole('heading', { level: 2 })).toContainText('demo-planner → demo-builder');
  const denied = chain.locator('.hop-node.verdict-denied').first();
  await expect(denied).toContainText('denied by the gate');
  await expect(denied).toContainText('no nexus.orchestration entitlement');
  await expect(denied).toContainText('orchestration_not_entitled');
  await expect(chain.locator('.hop-node.verdict-allowed, .hop-node.verdict-approved').first()).toBeVisible();
  await shot(page, testInfo, 'chains-view');
  await chain
    .getByRole('button', { name: /^Open demo-builder's run$/ })
    .first()
    .click();
  await expect(page.locator('.run-detail h1')).toContainText('demo-builder');

  // The banner's link lands on the Recent chains list itself (scrolled to), in Settings.
  await banner.getByRole('button', { name: 'Recent chains' }).click();
  await expect(page.getByRole('region', { name: 'Recent chains' })).toBeInViewport();

  // With agents present the first-run welcome is gone from the Inbox; Help brings it back.
  await page.getByRole('link', { name: /^Inbox/ }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to NEXUS' })).toHaveCount(0);
  await page.getByRole('banner').getByRole('button', { name: 'Help', exact: true }).click();
  await page.getByRole('button', { name: 'Welcome and the offline demo' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to NEXUS' })).toBeFocused();
  await shot(page, testInfo, 'welcome-from-help');
  await page.getByRole('button', { name: 'Close the welcome' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to NEXUS' })).toHaveCount(0);
});

test('Models is a form: Test connection makes a real request and shows the answer, or the error in words', async ({ app: page }, testInfo) => {
  const { startScriptedModel } = await import('../test/support/scripted-model.js');
  const model = await startScriptedModel({ script: [{ text: 'ok' }] });
  try {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page
      .getByRole('button', { name: 'Models' })
      .or(page.getByRole('link', { name: 'Models' }))
      .first()
      .click();
    const form = page.getByRole('region', { name: 'Test a model connection' });
    await page.getByRole('button', { name: 'Fill in Ollama' }).click();
    await expect(form.getByRole('textbox', { name: 'Base URL' })).toHaveValue('http://127.0.0.1:11434/v1');
    await form.getByRole('textbox', { name: 'Base URL' }).fill(model.baseURL);
    await form.getByRole('textbox', { name: 'Model' }).fill('scripted');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('model-test-result')).toContainText('The model answered: “ok”');
    expect(model.requests).toHaveLength(1);
    await shot(page, testInfo, 'models-form-connected');
    await form.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:1/v1');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('model-test-result')).toContainText('Not connected (provider_unreachable)');
    await shot(page, testInfo, 'models-form-error');
  } finally {
    await model.close();
  }
});
