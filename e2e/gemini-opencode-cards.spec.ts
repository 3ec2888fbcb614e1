// The real Gemini CLI and OpenCode ask NEXUS: their call waits as a card in the window's inbox (the command, the
// client, the folder), and Approve in the window lets the client run it. `nexus serve` runs with a throwaway HOME.
import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientWorld, type ClientWorld, type Run } from '../test/support/clients.js';
import { oneCall, startAnthropicModel, type ClientCall, type ClientModel } from '../test/support/client-models.js';
import { startGeminiModel } from '../test/support/gemini-model.js';
import { gemini, geminiCommand, opencode, opencodeCommand } from '../test/support/more-clients.js';
import { removeDir, tempDir } from '../test/support/world.js';

const ROOT = join(import.meta.dirname, '..');

async function serve(dataDir: string, home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'serve', '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL'); // a server that never came up must not outlive the test
      reject(new Error(`nexus serve printed no URL: ${out}`));
    }, 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
  });
  return { child, url };
}

const CLIENTS: Array<{
  client: 'gemini' | 'opencode';
  installed: boolean;
  call: ClientCall;
  start(c: ClientCall): Promise<ClientModel>;
  go(w: ClientWorld, m: ClientModel): Promise<Run>;
}> = [
  {
    client: 'gemini',
    installed: geminiCommand() !== null,
    call: { name: 'run_shell_command', input: { command: 'echo approved > approved.txt', description: 'write it' } },
    start: (c) => startGeminiModel(oneCall(c)),
    go: (w, m) => gemini(w, m.url),
  },
  {
    client: 'opencode',
    installed: opencodeCommand() !== null,
    call: { name: 'bash', input: { command: 'echo approved > approved.txt', description: 'write it' } },
    start: (c) => startAnthropicModel(oneCall(c)),
    go: (w, m) => opencode(w, m.url),
  },
];

for (const c of CLIENTS) {
  test(`a ${c.client} call waits as a card; Approve in the window lets it run`, async ({ page }) => {
    test.skip(!c.installed, `${c.client} is not installed in node_modules`);
    test.setTimeout(120_000);
    const dataDir = tempDir('e2e-ext');
    const world = clientWorld(dataDir);
    const served = await serve(dataDir, world.home);
    const model = await c.start(c.call);
    try {
      const connected = world.nexus(['connect', c.client, '--project', world.project]);
      expect(connected.code, connected.stderr).toBe(0);
      await page.goto(served.url);
      const running = c.go(world, model);
      const card = page.getByRole('article');
      await expect(card).toContainText(`${c.client}-proj wants to use bash`, { timeout: 60_000 });
      await expect(card.getByText('echo approved > approved.txt').first()).toBeVisible();
      await expect(card).toContainText(new RegExp(`${c.client} · session`));
      await card.getByRole('button', { name: 'Approve' }).click();
      const r = await running;
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(readFileSync(join(world.project, 'approved.txt'), 'utf8').trim()).toBe('approved');
    } finally {
      await model.close();
      const exited = new Promise((r) => served.child.once('exit', r));
      served.child.kill('SIGTERM');
      await exited;
      world.cleanup();
      removeDir(dataDir);
    }
  });
}
