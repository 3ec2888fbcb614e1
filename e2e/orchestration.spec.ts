// Orchestration through the window: a chain of two scripted agents (real HTTP) crossing the real gate.
import { test, expect, shot, bash, delegate, lastResult } from '../test/support/e2e-fixtures.js';
import type { Page } from '@playwright/test';
import { shortId } from '../renderer/src/views/inbox/cards.js';

async function openOrchestration(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Recent chains', exact: true })).toBeVisible();
}
const recent = (page: Page) => page.getByRole('region', { name: 'Recent chains' });

/** lead delegates to mid; mid's bash is hop 2. mid waits when held, retries when told APPROVED. */
const leadScript = (req: Parameters<typeof lastResult>[0], i: number) =>
  i === 0 ? { toolCalls: [delegate('mid')] } : { text: `lead read: ${lastResult(req)}` };
const midScript = (req: Parameters<typeof lastResult>[0]) => {
  if (lastResult(req).includes('"hop_held"')) return { text: 'waiting for a person' };
  if (req.toolResults.length && !lastResult(req).includes('"hop_held"')) return { text: 'mid finished' };
  return { toolCalls: [bash('echo built')] };
};

test('an orchestration hold: the card says orchestration asks for hop 2; approved, the chain goes on', async ({ app: page, served }, testInfo) => {
  await served.agent('lead', leadScript);
  await served.agent('mid', midScript);
  await served.openGate(['lead'], true);
  await served.call('runsStart', { agent: 'lead', prompt: 'Get mid to build.' });

  const card = page.getByRole('article');
  await expect(card).toContainText('mid wants to use bash');
  await expect(card).toContainText(/Asked by orchestration: hop 2 of chain/);
  await expect(card.getByText('Orchestration', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: /^Trust / })).toHaveCount(0);
  // What the hop would run is on the card, said once: in its title (the command is the target).
  await expect(card.getByRole('heading', { level: 2 })).toHaveText('mid wants to use bash on echo built');
  await expect(card.getByLabel('Chain path')).toContainText('lead');
  await expect(card.getByLabel('Chain path')).toContainText('handed on by lead');
  await shot(page, testInfo, 'inbox-orchestration-card');
  await card.getByRole('button', { name: 'Approve' }).click();

  await openOrchestration(page);
  const chain = recent(page).getByRole('listitem').first();
  await expect(chain).toContainText('lead');
  await expect(chain.getByRole('row').nth(2)).toContainText('approved');
  // The retry proceeds: mid's bash ran, the task's check passed, lead read mid's answer.
  await expect.poll(async () => (await served.call('runsList', {})).find((r) => r.agent === 'lead')?.status, { timeout: 20_000 }).toBe('succeeded');
  const lead = (await served.call('runsList', {})).find((r) => r.agent === 'lead')!;
  expect(lead.final_answer).toContain('lead read: mid finished');
  await shot(page, testInfo, 'recent-chains-approved');

  // The lead's run shows the delegated task with its acceptance-check evidence.
  await page.getByRole('link', { name: 'Runs' }).click();
  await page
    .getByRole('list', { name: 'Runs' })
    .getByRole('button')
    .filter({ has: page.locator('strong', { hasText: /^lead$/ }) })
    .click();
  const evidence = page.locator('.evidence');
  await expect(evidence).toContainText('Delegated to mid');
  await expect(evidence).toContainText('completed');
  await expect(evidence).toContainText('passed');
  await shot(page, testInfo, 'run-detail-delegation-evidence');

  // mid's run: the held try reads "held" (not a red failure), its long sentence wraps inside the panel,
  // and the acceptance check (a kernel row) is listed after the round it followed.
  await page
    .getByRole('list', { name: 'Runs' })
    .getByRole('button')
    .filter({ has: page.locator('strong', { hasText: /^mid$/ }) })
    .click();
  await expect(page.locator('.run-detail .state-pill.held')).toHaveText('held');
  await expect(page.locator('.run-detail .group-head').last()).toHaveText('Kernel rows');
  const overflow = await page
    .locator('.run-detail .panel, .run-detail .round')
    .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
  expect(overflow).toBe(0);
  await expect(page.locator('.run-detail p.muted code')).toHaveText(/^chain_…[0-9a-f]{6}$/);
  await shot(page, testInfo, 'run-detail-held-row');
  // In a narrow window the input column keeps some width and nothing spills out of its panel.
  await page.setViewportSize({ width: 860, height: 800 });
  expect((await page.locator('.run-detail .input-cell').first().boundingBox())!.width).toBeGreaterThan(60);
  expect((await page.locator('.run-detail .err-cell').first().boundingBox())!.width).toBeGreaterThan(150);
  expect((await page.locator('.run-detail .err-cell').first().boundingBox())!.height).toBeLessThan(400);
  expect(await page.locator('.run-detail .panel').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length)).toBe(0);
  await shot(page, testInfo, 'run-detail-narrow');
});

test('Recent chains updates live while a hop waits, and switches the moment it is answered', async ({ app: page, served }, testInfo) => {
  await served.agent('lead', leadScript);
  await served.agent('mid', midScript);
  await served.openGate(['lead'], true);
  await openOrchestration(page);
  await expect(recent(page)).toContainText('No chains yet');
  await served.call('runsStart', { agent: 'lead', prompt: 'Go.' });

  const hops = recent(page).getByRole('row');
  await expect(hops.nth(1)).toContainText('delegate_task');
  await expect(hops.nth(1)).toContainText('allowed');
  await expect(hops.nth(2)).toContainText('awaiting your approval');
  await expect(hops.nth(2)).toContainText('echo built');
  await expect(page.getByTestId('pending-count')).toHaveText('1 pending');
  await shot(page, testInfo, 'recent-chains-waiting');

  // Answered elsewhere (another window, the CLI): this screen changes without a reload.
  const [hold] = await served.call('inboxList', {});
  await served.call('inboxDeny', { id: hold.id, reason: 'not now' });
  await expect(hops.nth(2)).toContainText('refused');
  await recent(page).getByRole('button', { name: 'Clear' }).click();
  await expect(recent(page)).toContainText('No chains yet');
});

test("switching orchestration off changes the next hop's verdict to orchestration_disabled", async ({ app: page, served }, testInfo) => {
  let release!: () => void;
  const switchedOff = new Promise<void>((r) => (release = r));
  await served.agent('lead', leadScript);
  await served.agent('mid', async (req, i) => {
    if (i === 0) return { toolCalls: [bash('echo one')] };
    if (i === 1) {
      await switchedOff; // the person switches orchestration off before mid's next hop
      return { toolCalls: [bash('echo two')] };
    }
    return { text: `mid read: ${lastResult(req)}` };
  });
  await served.openGate(['lead'], false);
  await openOrchestration(page);
  await served.call('runsStart', { agent: 'lead', prompt: 'Go.' });
  const hops = recent(page).getByRole('row');
  await expect(hops.nth(2)).toContainText('echo one');
  await expect(hops.nth(2)).toContainText('allowed');

  const toggle = page.getByRole('switch', { name: 'Cross-Agent Orchestration', exact: true });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText(/Cross-Agent Orchestration is off \(orchestration_disabled\)/)).toBeVisible();
  release();

  await expect(hops.nth(3)).toContainText('echo two');
  await expect(hops.nth(3)).toContainText('denied');
  await expect(hops.nth(3)).toContainText('orchestration_disabled');
  await shot(page, testInfo, 'orchestration-switched-off');
});

test('Stop all halts a running chain, shows it is engaged, and Resume lifts it', async ({ app: page, served }, testInfo) => {
  await served.agent('lead', leadScript);
  await served.agent('mid', (req, i) => (i === 0 ? { toolCalls: [bash('sleep 30')] } : { text: `mid read: ${lastResult(req)}` }));
  await served.openGate(['lead'], false);
  await served.call('runsStart', { agent: 'lead', prompt: 'Go.' });
  await expect.poll(async () => (await served.call('runsList', {})).filter((r) => r.status === 'running').length, { timeout: 15_000 }).toBe(2);
  await expect
    .poll(async () => {
      const mid = (await served.call('runsList', {})).find((r) => r.agent === 'mid');
      return mid ? (await served.call('runsShow', { id: mid.id })).rows.some((r) => r.tool === 'bash' && r.state === 'running') : false;
    })
    .toBe(true);

  await page.getByRole('banner').getByRole('button', { name: 'Stop all', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Stop everything?' });
  await expect(dialog).toBeVisible();
  await shot(page, testInfo, 'stop-all-confirm');
  await dialog.getByRole('button', { name: 'Stop everything' }).click();
  await expect(page.getByRole('banner')).toContainText('Stop all engaged');
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
  await expect.poll(async () => (await served.call('runsList', {})).filter((r) => r.status === 'running').length).toBe(0);
  const runs = await served.call('runsList', {});
  expect(runs.map((r) => r.status).sort()).toEqual(['canceled', 'canceled']);
  await shot(page, testInfo, 'stop-all-engaged');

  await openOrchestration(page);
  await expect(page.locator('.gate-state')).toContainText('Stop all is engaged');
  await page
    .getByRole('region', { name: /Stop all is engaged/ })
    .getByRole('button', { name: 'Resume', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'Stop all', exact: true })).toBeVisible();
  expect((await served.call('status', {})).stop_all).toBe(false);
});

test('the Orchestration page shows every control, whether orchestration is on or off', async ({ app: page, served }, testInfo) => {
  await openOrchestration(page);
  await expect(page.getByRole('switch', { name: 'Cross-Agent Orchestration', exact: true })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('switch', { name: 'Per-hop approval', exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('entitlement-state')).toHaveText('Entitlement: Not entitled');
  await expect(page.getByRole('spinbutton', { name: 'Maximum chain depth' })).toHaveValue('3');
  await expect(page.getByRole('spinbutton', { name: 'Maximum agents per chain' })).toHaveValue('4');
  await expect(page.getByText('Empty: no agent may orchestrate.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop all', exact: true })).toHaveCount(1);
  await page.getByRole('spinbutton', { name: 'Maximum chain depth' }).fill('5');
  await page.getByRole('spinbutton', { name: 'Maximum chain depth' }).press('Enter');
  await expect(page.getByRole('spinbutton', { name: 'Maximum chain depth' })).toHaveValue('5');
  await shot(page, testInfo, 'settings-orchestration');

  // A value out of range says what is wanted and that nothing was saved (it was a silent red box).
  await page.getByRole('spinbutton', { name: 'Maximum agents per chain' }).fill('0');
  await page.getByRole('spinbutton', { name: 'Maximum agents per chain' }).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Enter a whole number from 1 to 100. Not saved: the limit stays 4.' })).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Maximum agents per chain' })).toHaveAccessibleDescription(/whole number from 1 to 100/);
  expect((await served.call('settingsGet', {}))['orchestration.maxAgents']).toBe(4);
  // An allowlist name that matches no agent is flagged, not silently accepted as if it allowed someone.
  await page.getByLabel('Agent to allow as an orchestrator').fill('leda');
  await expect(page.getByRole('status').filter({ hasText: 'No agent is named leda' })).toBeVisible();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Orchestrators allowlist' })).toContainText('leda (no such agent)');
  await shot(page, testInfo, 'settings-orchestration-invalid');
});

test('a waiting delegation: Runs shows what it waits on (hold and hop), and Delegated tasks lists the task', async ({ app: page, served }) => {
  await served.agent('lead', leadScript);
  await served.agent('mid', midScript);
  await served.openGate(['lead'], true);
  await served.call('runsStart', { agent: 'lead', prompt: 'Get mid to build.' });
  await expect(page.getByRole('article')).toContainText('mid wants to use bash');
  const hold = (await served.call('inboxList', {})).find((c) => c.kind === 'orchestration')!;

  await page.getByRole('link', { name: 'Runs' }).click();
  const midItem = page
    .getByRole('list', { name: 'Runs' })
    .getByRole('button')
    .filter({ has: page.locator('strong', { hasText: /^mid$/ }) });
  await expect(midItem.locator('.status-pill')).toHaveText('waiting');
  await midItem.click();
  // The hold's short form (the full id in its title), as in Runs and Tasks.
  const held = page.locator('.run-detail').getByRole('status').filter({ hasText: 'Waiting on orchestration hold' });
  await expect(held).toContainText(`${shortId(hold.id)} (hop 2`);
  await expect(held.locator('code')).toHaveAttribute('title', hold.id);

  await page.locator('summary', { hasText: 'Delegated tasks' }).click();
  const row = page.getByRole('table').getByRole('row').nth(1);
  await expect(row).toContainText('lead → mid');
  await expect(row).toContainText('waiting');
  await expect(row).toContainText('hop 2');
  await row.getByRole('button', { name: /open its run/ }).press('Enter');
  await expect(page.locator('.run-detail h1')).toContainText('mid');
});
