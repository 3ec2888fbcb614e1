// The rules editor validates live through rulesCheck and tests calls through rulesEval (pure: no model).
import { test, expect, shot } from '../test/support/e2e-fixtures.js';

test('the rules editor rejects a bad list with the located error, and the tester shows the outcome', async ({ app: page }, testInfo) => {
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('textbox', { name: 'Approval rules (JSON)' });
  await editor.fill(
    JSON.stringify(
      [
        { tool: 'bash', verdict: 'allow' },
        { tool: 'write', verdict: 'maybe' },
      ],
      null,
      2,
    ),
  );
  const errors = page.getByRole('list', { name: 'Rule errors' });
  await expect(errors).toContainText('rule 1 (the 2nd), key "verdict"');
  await expect(errors).toContainText('verdict');
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'Fix the rule list below to save.' })).toBeVisible();
  await shot(page, testInfo, 'rules-editor-invalid');

  // A line longer than the editor is wide scrolls instead of wrapping, so line N stays beside gutter number N.
  const long = [
    { tool: 'bash', path: 'command', match: `*${'x'.repeat(300)}*`, verdict: 'deny', reason: 'a long reason '.repeat(10) },
    ...Array.from({ length: 8 }, () => ({ tool: 'read', verdict: 'allow' })),
  ];
  await editor.fill(JSON.stringify(long, null, 2).replace(/\{\n\s+"tool": "bash"[^}]*\}/, (m) => m.replace(/\n\s*/g, ' ')));
  await expect(page.getByText(/Valid rule list \(9 rules\)/)).toBeVisible();
  const fit = await editor.evaluate((el) => {
    const ta = el as HTMLTextAreaElement;
    const lines = ta.value.split('\n').length;
    const lineHeight = parseFloat(getComputedStyle(ta).lineHeight);
    const gutter = ta.parentElement!.querySelector('.gutter')!.children.length;
    return { visualLines: Math.round((ta.scrollHeight - 16) / lineHeight), lines, gutter };
  });
  expect(fit.visualLines).toBe(fit.lines);
  expect(fit.gutter).toBe(fit.lines);

  // A megabyte paste (over the 64 KiB envelope and the 1 MiB message limit) is judged, not sent: the
  // connection used to drop and the editor said only that.
  const huge = JSON.stringify(
    Array.from({ length: 12_000 }, (_, i) => ({ tool: 'bash', path: 'command', match: `echo ${'y'.repeat(80)}${i}`, verdict: 'allow' })),
  );
  await editor.evaluate((el, v) => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(el, v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, huge);
  await expect(errors).toContainText(/The list: approval rules are \d+ bytes as JSON; the limit is 65536 bytes \(64 KiB\)/);
  await expect(page.getByText(/Connection lost/)).toHaveCount(0);

  await editor.fill('[{"tool": "bash", "verdict": "allow",]');
  await expect(errors).toContainText(/Line 1, column \d+/);

  await editor.fill(
    JSON.stringify(
      [
        { tool: 'bash', path: 'command', match: '*git push*--force*', verdict: 'deny', reason: 'force push rewrites history' },
        { tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow' },
      ],
      null,
      2,
    ),
  );
  await expect(page.getByText(/Valid rule list \(2 rules\)/)).toBeVisible();
  await page.getByRole('radio', { name: /rules/ }).check();
  await page.getByRole('textbox', { name: 'Test tool name' }).fill('bash');
  await page.getByRole('textbox', { name: 'Test input' }).fill('{"command": "git push --force origin main"}');
  const outcome = page.getByRole('status', { name: 'Test outcome' });
  await expect(outcome).toContainText('failed');
  await expect(outcome).toContainText('matched rule 0 (the 1st)');
  await expect(outcome).toContainText('force push rewrites history');
  await page.getByRole('textbox', { name: 'Test input' }).fill('{"command": "ls -la"}');
  await expect(outcome).toContainText('granted');
  await expect(outcome).toContainText('by rule');
  await page.getByRole('textbox', { name: 'Test tool name' }).fill('wrte');
  await expect(outcome).toContainText('no approval rule allows wrte');
  await shot(page, testInfo, 'rules-editor-tester');
});

test('an agent is created, edited and removed from the Agents view', async ({ app: page, served }, testInfo) => {
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'New agent' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('reviewer');
  await page.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:11434/v1');
  await page.getByRole('radio', { name: /rules/ }).check();
  await page.getByRole('textbox', { name: 'Approval rules (JSON)' }).fill('[{"tool": "read|list", "verdict": "allow"}]');
  await expect(page.getByText(/Valid rule list \(1 rule\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Agents' })).toContainText('reviewer');
  const saved = await served.call('agentsGet', { name: 'reviewer' });
  expect(saved).toMatchObject({ mode: 'rules', approval_rules: [{ tool: 'read|list', verdict: 'allow' }] });
  // The browser host has no keychain: the editor says where the key comes from instead.
  await expect(page.getByText(/browser host, which has no keychain/)).toBeVisible();
  await shot(page, testInfo, 'agents-editor');

  // "New agent" with the name of an existing one is refused: it used to replace reviewer's model and rules.
  await page.getByRole('button', { name: 'New agent' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('reviewer');
  await page.getByRole('textbox', { name: 'Model' }).fill('other-model');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('An agent named reviewer already exists');
  expect(await served.call('agentsGet', { name: 'reviewer' })).toMatchObject({
    mode: 'rules',
    model: { model: 'llama3.1' },
    approval_rules: [{ tool: 'read|list', verdict: 'allow' }],
  });
  // API errors name the form's fields.
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('second');
  await page.getByRole('textbox', { name: 'Base URL' }).fill('not a url');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('Base URL: Invalid URL');
  // The problem also sits next to its field: the field says it is invalid and is described by it.
  const baseURL = page.getByRole('textbox', { name: 'Base URL' });
  await expect(baseURL).toHaveAttribute('aria-invalid', 'true');
  await expect(baseURL).toHaveAccessibleDescription('Invalid URL');
  await expect(page.getByRole('textbox', { name: 'Model' })).not.toHaveAttribute('aria-invalid', 'true');
  await shot(page, testInfo, 'agents-editor-field-error');
  expect((await served.call('agentsList', {})).map((a) => a.name)).toEqual(['reviewer']);
  await page.getByRole('list', { name: 'Agents' }).getByText('reviewer').click();

  // An opened agent is replaced (agentsReplace): its edit is saved under its name, and nothing else is created.
  await page.getByRole('textbox', { name: 'Instructions' }).fill('Review, never write.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  expect(await served.call('agentsGet', { name: 'reviewer' })).toMatchObject({
    instructions: 'Review, never write.',
    mode: 'rules',
    model: { model: 'llama3.1' },
  });

  await page.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove agent' }).click();
  await expect(page.getByRole('list', { name: 'Agents' })).not.toContainText('reviewer');
  expect((await served.call('agentsList', {})).filter((a) => a.status === 'active')).toEqual([]);
});
