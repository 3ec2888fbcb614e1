// The real Gemini CLI (`gemini --experimental-acp`, a pinned dev dependency) as an ACP agent NEXUS runs in its
// sandbox, against a scripted Gemini API server on loopback (reached only through NEXUS's proxy: the profile
// allows 127.0.0.1): the model asks for run_shell_command, Gemini asks NEXUS's permission, the card parks, and
// approved the shell runs inside the workspace; denied, it does not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { harness, type Harness } from '../../../test/support/kernel.js';
import { world, type World } from '../../../test/support/world.js';
import { startGeminiModel } from '../../../test/support/gemini-model.js';
import type { ClientModel } from '../../../test/support/client-models.js';
import { saveAgent } from '../../agents/profiles.js';
import { sandboxAvailability } from '../../sandbox/index.js';
import { startAcpRun } from './acp-run.js';

const GEMINI = resolve(import.meta.dirname, '../../../node_modules/@google/gemini-cli/bundle/gemini.js');
const ready = sandboxAvailability().kind !== null && existsSync(GEMINI);
let w: World;
let h: Harness;
let dir: string;
let model: ClientModel;
// Gemini's own shell tries NEXUS's database: inside the sandbox the data dir is an empty folder.
const command = () => `(cat ${join(dir, 'data', 'nexus.db')} >/dev/null 2>&1 && echo leaked || echo hidden) > gem.txt`;

// Under /var/tmp, not the OS temp folder: the sandbox's private /tmp would hide a data dir there anyway; this one is
// hidden only because NEXUS hides its data dir. So it is made here and only handed to the world to remove.
beforeEach(async () => {
  w = world();
  dir = w.own(mkdtempSync('/var/tmp/nexus-gemini-acp-'));
  h = await harness({ dir: join(dir, 'data'), modules: { governance: true } });
  model = await startGeminiModel((req) =>
    req.toolResults.length === 0 ? { call: { name: 'run_shell_command', input: { command: command(), description: 'write gem' } } } : { text: 'done' },
  );
  w.defer(() => model.close());
  w.defer(() => h.cleanup());
});
afterEach(() => w.cleanup());

function agent() {
  const ws = join(dir, 'ws');
  const home = join(ws, '.home');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  saveAgent(h.nexus.kernel, {
    name: 'gemini',
    mode: 'ask',
    workspace: ws,
    model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'gemini' },
    network: { allow: ['127.0.0.1'] },
    acp: {
      command: process.execPath,
      args: [GEMINI, '--experimental-acp'],
      env: { HOME: home, GEMINI_API_KEY: 'fake', GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    },
  });
  return ws;
}
const until = async (f: () => boolean, ms = 60_000) => {
  for (const t0 = Date.now(); !f() && Date.now() - t0 < ms;) await new Promise((r) => setTimeout(r, 50));
  expect(f()).toBe(true);
};

describe.skipIf(!ready)('Gemini CLI over ACP in NEXUS sandbox', () => {
  it('its run_shell_command parks a card; approved, the shell runs in the workspace and cannot read the data dir', async () => {
    const ws = agent();
    const { done } = startAcpRun(h.nexus.kernel, { agent: 'gemini', prompt: 'write gem' });
    await until(() => h.nexus.kernel.inbox.pending().length === 1);
    const card = h.nexus.kernel.inbox.pending()[0]!;
    expect(h.nexus.kernel.getRow(card.id)).toMatchObject({ tool: 'bash', input: { command: command() } });
    h.nexus.kernel.approve(card.id, { by: 'person:test' });
    const ended = await done;
    expect(ended.status, ended.error ?? '').toBe('succeeded');
    expect(existsSync(join(dir, 'data', 'nexus.db'))).toBe(true);
    expect(readFileSync(join(ws, 'gem.txt'), 'utf8')).toBe('hidden\n');
    // The model read the shell's result (through the proxy: the sandbox has no other way out).
    expect(model.requests.length).toBe(2);
    expect(h.nexus.kernel.getRow(card.id)).toMatchObject({ state: 'succeeded', granted_by: 'person' });
  }, 90_000);

  it('denied, Gemini does not run the shell and its model reads the refusal', async () => {
    const ws = agent();
    const { done } = startAcpRun(h.nexus.kernel, { agent: 'gemini', prompt: 'write gem' });
    await until(() => h.nexus.kernel.inbox.pending().length === 1);
    h.nexus.kernel.deny(h.nexus.kernel.inbox.pending()[0]!.id, { by: 'person:test', reason: 'no' });
    await done;
    expect(existsSync(join(ws, 'gem.txt'))).toBe(false);
    expect(model.requests.length).toBe(2);
    // ACP's answer carries no reason: Gemini tells its model the user canceled the call.
    expect(model.requests[1]!.toolResults).toEqual([JSON.stringify({ error: 'Tool "run_shell_command" was canceled by the user.' })]);
  }, 90_000);
});
