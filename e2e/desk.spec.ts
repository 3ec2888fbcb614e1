// The window at a team desk (docs/desk.md): two `nexus serve --desk` kernels on their own data dirs joined to
// one real Postgres cluster (initialised with `nexus desk init`). B's Inbox shows A's card under A's machine, below
// B's own queue, and B approves it there: A runs it. Settings ▸ Desk joins a third machine, says why a join
// fails in words, and leaves. axe in light and dark, at 1280 and 800 px.
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pgAvailable, startCluster, type PgCluster } from '../test/support/pg-cluster.js';
import { createDeskRoles } from '../test/support/desk-roles.js';
import { serveAtDesk, type DeskServer } from '../test/support/e2e-desk.js';
import { startScriptedModel, type ScriptedModel } from '../test/support/scripted-model.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

// axe runs in light and dark at two widths for each state: slower than one spec's usual minute on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.skip(!pgAvailable, 'Debian postgresql is not installed');

const ROOT = join(import.meta.dirname, '..');
let pg: PgCluster;
const servers: DeskServer[] = [];
const models: ScriptedModel[] = [];

/** An ops-bot (the team_ops agent) in mode ask on `m`, whose first call, `bash echo WORD[THEN]`, parks there. */
async function parkOn(m: DeskServer, word: string, then = ''): Promise<void> {
  const command = `echo ${word}${then}`;
  const model = await startScriptedModel({
    script: (_req, i) => (i === 0 ? { toolCalls: [{ name: 'bash', input: { command } }] } : { text: `done ${word}` }),
  });
  models.push(model);
  await m.call('agentsSave', { name: 'ops-bot', mode: 'ask', model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted-ops' } });
  await m.call('runsStart', { agent: 'ops-bot', prompt: 'Say the word.' });
}

async function both(page: Page, testInfo: TestInfo, name: string) {
  await expectNoAxeViolations(page, testInfo, name);
  await page.setViewportSize({ width: 800, height: 820 });
  await expectNoAxeViolations(page, testInfo, name);
  await page.setViewportSize({ width: 1280, height: 820 });
}

test.beforeAll(async () => {
  pg = await startCluster();
  execFileSync(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'desk', 'init', pg.adminUrl], { cwd: ROOT, stdio: 'pipe' });
  await createDeskRoles(pg.adminUrl);
});
test.afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const m of models.splice(0)) await m.close();
  await pg?.destroy();
});

test("B's Inbox groups A's card under A's machine, below B's own card, and B's approval runs it on A", async ({ page }, testInfo) => {
  const a = await serveAtDesk({ url: pg.url('laptop_a'), machine: 'laptop-a', person: 'alice' });
  const b = await serveAtDesk({ url: pg.url('laptop_b'), machine: 'laptop-b', person: 'bob' });
  servers.push(a, b);
  await parkOn(a, 'from-a', '; rm -rf ./build'); // a call the danger classifier flags: a second look first
  await parkOn(b, 'from-b');
  await page.goto(b.url);
  await expect(page.getByRole('banner')).toBeVisible();

  // B's own card first, saying it runs here; then the desk's other machines, each a group of its own.
  await expect(page.getByTestId('queue-machine')).toHaveText('This machine: laptop-b · its cards run here');
  const own = page.locator('.card-row').first();
  await expect(own).toContainText('runs here, on laptop-b');
  await expect(own.locator('.machine-chip')).toHaveAttribute('title', 'Runs here, on laptop-b');
  const group = page.locator('[data-group-machine="laptop-a"]');
  await expect(group.getByRole('heading', { name: /laptop-a/ })).toBeVisible();
  const card = group.locator('[data-desk-card]');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('runs on laptop-a');
  await expect(card).toContainText('ops-bot');
  await expect(card).toContainText('echo from-a');
  // B's own card is not listed again among the desk's.
  await expect(page.locator('[data-group-machine="laptop-b"]')).toHaveCount(0);
  const ownBox = await own.boundingBox();
  const groupBox = await group.boundingBox();
  expect(ownBox!.y).toBeLessThan(groupBox!.y);
  await both(page, testInfo, 'desk-inbox');

  // Keyboard alone: focus the approve button of A's card and press Enter.
  const approve = card.getByRole('button', { name: /^Approve ops-bot bash echo from-a; rm -rf \.\/build on laptop-a$/ });
  await approve.focus();
  await page.keyboard.press('Enter');
  const second = page.getByRole('alertdialog', { name: 'Approve a call that needs a second look?' });
  await expect(second).toContainText('It deletes recursively (rm -r)');
  await expect(second).toContainText('runs on laptop-a');
  await expectNoAxeViolations(page, testInfo, 'desk-inbox-second-look');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Approved ops-bot bash on laptop-a: laptop-a applies it/)).toBeVisible();
  await expect.poll(async () => (await a.call('runsList', {}))[0]?.final_answer, { timeout: 20_000 }).toBe('done from-a');
  await expect(group).toHaveCount(0);
  const rows = await a.call('runsShow', { id: (await a.call('runsList', {}))[0]!.id });
  expect(rows.rows.find((r) => r.tool === 'bash')?.approved_by).toBe('person:desk:bob@laptop-b');
  await expect(page.locator('[data-desk-card]')).toHaveCount(0);
  await expect(page.getByText('No card of another machine waits.')).toBeVisible();
});

test('Settings ▸ Desk joins a machine, says in words why a join failed, shows the connection, and leaves', async ({ page }, testInfo) => {
  const c = await serveAtDesk();
  servers.push(c);
  await page.goto(c.url);
  await expect(page.getByRole('banner')).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Desk' }).click();
  await expect(page.getByRole('heading', { name: 'Team desk' })).toBeVisible();
  await both(page, testInfo, 'desk-settings-join');

  // Keyboard alone: type into each field, Enter submits.
  const url = page.getByRole('textbox', { name: 'Desk URL' });
  await url.focus();
  await page.keyboard.type('postgres://laptop_c@127.0.0.1:1/desk');
  await page.keyboard.press('Tab');
  await page.keyboard.type('laptop-c');
  await page.keyboard.press('Tab');
  await page.keyboard.type('carol');
  await page.keyboard.press('Tab');
  await page.keyboard.type('not-a-real-password');
  await page.keyboard.press('Enter');
  const error = page.getByRole('alert');
  await expect(error).toHaveText(
    /^Could not join the desk at postgres:\/\/laptop_c@127\.0\.0\.1:1\/desk: nothing answers at 127\.0\.0\.1:1 \(is PostgreSQL running there/,
  );
  await both(page, testInfo, 'desk-settings-join-error');
  expect(await c.call('deskStatus', {})).toMatchObject({ joined: false });

  await url.fill(pg.url('laptop_c'));
  await url.press('Enter');
  const facts = page.getByTestId('desk-facts');
  await expect(page.getByTestId('desk-state')).toHaveText(/Connected/);
  await expect(facts).toContainText('laptop-c');
  await expect(facts).toContainText('carol');
  await expect(page.getByTestId('desk-backlog')).toHaveText(/^\d+ changes? waiting$/);
  await expect(facts).toContainText(/Stored, in .*secrets\.json, readable by you alone \(no OS keychain here\)/);
  await expect(facts).not.toContainText('not-a-real-password');
  await expect(facts).toContainText(pg.url('laptop_c'));
  expect(await c.call('deskStatus', {})).toMatchObject({ joined: true, connected: true, machine: 'laptop-c', person: 'carol', source: 'saved' });
  await both(page, testInfo, 'desk-settings-joined');

  await page.getByRole('button', { name: 'Leave the desk' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Leave the team desk?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'desk-settings-leave-confirm');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Join a desk' })).toBeVisible();
  expect(await c.call('deskStatus', {})).toMatchObject({ joined: false, password_stored: false });
});
