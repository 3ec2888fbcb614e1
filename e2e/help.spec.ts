// The window links each view to its page in docs/: the top bar's Help opens the page for the view on screen,
// its links to other pages open them in the dialog, and it is used with the keyboard alone.
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

test('Help opens the page of the view on screen; keyboard alone; links move between pages', async ({ app: page }, testInfo) => {
  // Help is a menu in the top bar: its first item is the page of the view on screen.
  const menu = page.getByRole('banner').getByRole('button', { name: 'Help', exact: true });
  const help = page.getByRole('button', { name: /^Help: / });
  await menu.click();
  await expect(help).toHaveAccessibleName('Help: Modes and outcomes');
  await help.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Modes and outcomes');
  await expect(dialog.getByRole('table').first()).toContainText('granted by mode');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await shot(page, testInfo, 'help-modes');
  await dialog.getByRole('link', { name: 'approval rules' }).first().click();
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Approval rules');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(menu).toBeFocused();

  await page.getByRole('link', { name: 'Agents' }).click();
  await menu.click();
  await expect(help).toHaveAccessibleName('Help: The agent file and lifecycle hooks');
  await page.getByRole('link', { name: 'Settings' }).click();
  await menu.click();
  await expect(help).toHaveAccessibleName('Help: The orchestration gate');
  await page
    .getByRole('button', { name: 'Models' })
    .or(page.getByRole('link', { name: 'Models' }))
    .first()
    .click();
  await menu.click();
  await expect(help).toHaveAccessibleName('Help: Connecting a local model');
  await help.click();
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Connecting a local model');
  await expect(dialog.locator('pre').first()).toContainText('"baseURL": "http://127.0.0.1:11434/v1"');
  await shot(page, testInfo, 'help-local-models');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
