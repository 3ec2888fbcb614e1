// The browser host authenticates the person, in a real browser: the printed address opens NEXUS once and
// leaves no key behind for other local servers; a page served from another port on 127.0.0.1 gets nothing;
// a reload says what to do, and `nexus open` (the real command) lets the person back in.
import { test, expect } from '../test/support/e2e-fixtures.js';
import { createServer, type Server } from 'node:http';
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** `nexus open --data-dir DIR`, as the person types it. */
const nexusOpen = (dataDir: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'open', '--data-dir', dataDir], (error, stdout, stderr) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)\n/.exec(stdout);
      if (error || !m) reject(new Error(`nexus open failed: ${stderr}${stdout}`));
      else resolve(m[1]!);
    }),
  );

test('the address opens NEXUS once and leaves the key nowhere another page can reach', async ({ app: page, served, context }) => {
  // The token left the address bar at once; no cookie was set.
  expect(page.url()).not.toContain('token');
  expect(await context.cookies()).toEqual([]);
  await expect(page.locator('.conn-lost')).toHaveCount(0);

  // A page from another local port, in the same browser, tries everything it can.
  const evil: Server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>other</title><script>
      const out = { cookie: document.cookie, ws: 'pending' };
      const ws = new WebSocket('ws://127.0.0.1:${new URL(served.url).port}/api');
      ws.onopen = () => { out.ws = 'open'; ws.send(JSON.stringify({ id: 1, method: 'runsCreate', input: { mode: 'bypass' } })); };
      ws.onmessage = (e) => { out.ws = 'answered: ' + e.data; };
      ws.onclose = () => { if (out.ws === 'pending') out.ws = 'refused'; window.__done = out; };
    </script>`),
  );
  await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
  try {
    const other = await context.newPage();
    const port = (evil.address() as { port: number }).port;
    await other.goto(`http://127.0.0.1:${port}/`);
    const out = await other.waitForFunction(() => (window as unknown as { __done?: unknown }).__done).then((h) => h.jsonValue());
    expect(out).toEqual({ cookie: '', ws: 'refused' });
    await other.close();
  } finally {
    evil.close();
  }
  expect((await served.call('runsList', {})).filter((r) => r.mode === 'bypass')).toEqual([]);

  // The printed address again, in a second tab: spent.
  const second = await context.newPage();
  await second.goto(served.url);
  await expect(second.locator('.conn-lost')).toHaveText('No key to NEXUS: run nexus open in a terminal and open the address it prints.');
  await expect(second.getByRole('alert')).toContainText('This address was already used: each address opens NEXUS once. Run `nexus open`');
  await second.close();
});

test('a reload says how to get back in; the address `nexus open` prints does', async ({ app: page, served }) => {
  await page.reload();
  await expect(page.locator('.conn-lost')).toHaveText('No key to NEXUS: run nexus open in a terminal and open the address it prints.');
  await expect(page.getByRole('alert')).toContainText('This tab holds no key to NEXUS (a reload forgets it). Run `nexus open`');
  await page.goto(await nexusOpen(served.dataDir));
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByTestId('pending-count')).toHaveText('0 pending');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('.conn-lost')).toHaveCount(0);
  expect(page.url()).not.toContain('token');
});
