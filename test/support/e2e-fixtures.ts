// Per-test fixtures: a fresh temp data dir, `nexus serve --data-dir TMP --port 0` spawned as a real process
// (URL read from its stdout, killed after), the page opened at that URL, and an API client on the same
// WebSocket the page uses (so a test can set up state the way another window or the CLI would). Each printed
// address opens NEXUS once, so the client asks the kernel for its own address over the control socket, as
// `nexus open` does, and the page spends the printed one.
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { connectKernel } from '../../electron/cli/client.js';
import { createWebBridge, type SocketLike, type WebBridge } from '../../renderer/src/api/web-bridge.js';
import type { InputOf, Methods, MethodName, OutputOf } from '../../shared/api/index.js';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { startScriptedModel, type Script, type ScriptedModel, type ScriptedRequest } from './scripted-model.js';
import type { Mode } from '../../shared/types.js';
import { removeDir, tempDir } from './world.js';

/** A stand-in for the account service: its own Ed25519 key, given to `nexus serve` as
 *  NEXUS_ENTITLEMENT_PUBLIC_KEY (the documented override for tests and self-hosting). */
export interface TestAccount {
  publicPem: string;
  token(): Promise<string>;
}
function testAccount(): TestAccount {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519') as { privateKey: KeyObject; publicKey: KeyObject };
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    token: () =>
      new SignJWT({ ent: ['nexus.orchestration'], exp: Math.floor(Date.now() / 1000) + 3600 })
        .setProtectedHeader({ alg: 'EdDSA' })
        .setSubject('acct_e2e')
        .sign(privateKey),
  };
}

/** The last tool result a scripted model read. */
export const lastResult = (r: ScriptedRequest) => r.toolResults.at(-1)?.text ?? '';
export const bash = (command: string) => ({ name: 'bash', input: { command } });
export const delegate = (agent: string, task = 'Do the thing.', command = 'true') => ({
  name: 'delegate_task',
  input: { agent, task, acceptance_check: { command } },
});

const ROOT = join(import.meta.dirname, '..', '..');

export interface Served {
  /** The printed address (one-time: `app` spends it). */
  url: string;
  origin: string;
  dataDir: string;
  process: ChildProcess;
  api: WebBridge;
  /** Call the API and return the value (throws on an error result). */
  call<K extends MethodName>(name: K, input: InputOf<Methods[K]>): Promise<OutputOf<Methods[K]>>;
  writeJson(name: string, value: unknown): string;
  /** Start a scripted model on 127.0.0.1 and save an agent profile that uses it (closed after the test). */
  agent(name: string, script: Script, mode?: Mode): Promise<ScriptedModel>;
  /** Import an entitlement signed by the test account, switch orchestration on, set the allowlist. */
  openGate(allowlist: string[], perHopApproval: boolean): Promise<void>;
}

/** `nexus serve --data-dir DIR --port 0 [args]` as a real process, once it printed its address. */
export async function serve(dataDir: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), 'serve', '--data-dir', dataDir, '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  child.stdout!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nexus serve printed no URL in 20 s.\nstdout: ${out}\nstderr: ${err}`)), 20_000);
    child.stdout!.on('data', () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nexus serve exited with ${code}.\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  return { child, url, log: () => `--- nexus serve stdout\n${out}\n--- stderr\n${err}\n--- exit ${child.exitCode ?? child.signalCode ?? 'running'}` };
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<{ served: Served; app: Page }>({
  served: async ({}, use, testInfo) => {
    const dataDir = tempDir('e2e');
    const account = testAccount();
    const models: ScriptedModel[] = [];
    const { child, url, log } = await serve(dataDir, { NEXUS_ENTITLEMENT_PUBLIC_KEY: account.publicPem });
    const u = new URL(url);
    const kernel = await connectKernel(dataDir);
    const opened = await kernel.call('webOpen');
    kernel.close();
    if (!opened.ok) throw new Error(`webOpen failed: ${opened.error.message}`);
    const api = createWebBridge({
      url: `ws://${u.host}/api`,
      launch: new URL((opened.value as { url: string }).url).hash.slice('#token='.length),
      socket: (wsUrl) => new WebSocket(wsUrl, { headers: { origin: u.origin } }) as unknown as SocketLike,
    });
    const served: Served = {
      url,
      origin: u.origin,
      dataDir,
      process: child,
      api,
      async call(name, input) {
        const r = await (api[name] as (i: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>)(input);
        if (!r.ok) throw new Error(`${name} failed: ${r.error!.code}: ${r.error!.message}`);
        return r.value as never;
      },
      writeJson(name, value) {
        const p = join(dataDir, name);
        writeFileSync(p, JSON.stringify(value));
        return p;
      },
      async agent(name, script, mode = 'bypass') {
        const model = await startScriptedModel({ script });
        models.push(model);
        await served.call('agentsSave', { name, mode, model: { provider: 'chat-completions', baseURL: model.baseURL, model: `scripted-${name}` } });
        return model;
      },
      async openGate(allowlist, perHopApproval) {
        await served.call('entitlementsImport', { token: await account.token() });
        await served.call('settingsSet', { key: 'orchestration.enabled', value: true });
        await served.call('settingsSet', { key: 'orchestration.allowlist', value: allowlist });
        await served.call('settingsSet', { key: 'orchestration.perHopApproval', value: perHopApproval });
      },
    };
    await use(served);
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('nexus-serve.log', { body: log(), contentType: 'text/plain' });
    api.close();
    for (const m of models) await m.close();
    await stop(child);
    removeDir(dataDir); // and the workspaces the kernel made beside it
  },
  app: async ({ page, served }, use) => {
    await page.goto(served.url);
    await expect(page.getByRole('banner')).toBeVisible();
    await use(page);
  },
});

/** Keep a screenshot of a main view as a named artifact (attached to the report and under test-results/). */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  // The views scroll inside their panes, so a "full page" shot would stop at the window: grow the viewport
  // to the tallest pane for the picture, then put it back.
  const size = page.viewportSize() ?? { width: 1280, height: 820 };
  const tallest = await page.evaluate(() =>
    Math.max(
      ...[...document.querySelectorAll('.settings-body, .detail-pane, .inbox-detail, .inbox-empty, .item-list')].map(
        (e) => e.scrollHeight + e.getBoundingClientRect().top,
      ),
    ),
  );
  const height = Math.min(Math.max(size.height, Math.ceil(tallest) + 24), 4000);
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  if (height > size.height) await page.setViewportSize(size);
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

export { expect };
