// The real Claude Code adapter for ACP (`@zed-industries/claude-agent-acp`, a pinned dev dependency) as an ACP
// agent NEXUS runs in its sandbox. The adapter drives the real Claude Code (the pinned `@anthropic-ai/claude-code`
// binary, through the Claude Agent SDK) against a scripted Anthropic Messages server on loopback, reached only
// through NEXUS's proxy (the profile allows 127.0.0.1). The model asks for Bash; Claude Code asks the adapter,
// the adapter asks NEXUS (`session/request_permission`), and the row parks a card: approved, the command runs in
// the workspace and cannot read the data dir; denied (by a person or a rule), it does not run and the model reads
// the refusal and the reason (NEXUS queues it as the next line of the turn); Stop all cancels the session and
// kills the agent's process group.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { harness, type Harness } from '../support/kernel.js';
import { world, type World } from '../support/world.js';
import { startAnthropicModel, type ClientModel } from '../support/client-models.js';
import { dispatch } from '../../electron/api/dispatch.js';
import { saveAgent } from '../../electron/agents/profiles.js';
import { sandboxAvailability } from '../../electron/sandbox/index.js';
import { listProcesses } from '../../electron/store/queries/processes.js';
import { startAcpRun } from '../../electron/external/acp/acp-run.js';
import type { ApprovalRule } from '../../shared/types.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ADAPTER = join(ROOT, 'node_modules/@zed-industries/claude-agent-acp/dist/index.js');
const CLAUDE = join(ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');
const ready = sandboxAvailability().kind !== null && existsSync(ADAPTER) && existsSync(CLAUDE);
let w: World;
let h: Harness;
let dir: string;
let model: ClientModel;
// Claude Code's own Bash tries NEXUS's database: inside the sandbox the data dir is an empty folder.
const command = () => `(cat ${join(dir, 'data', 'nexus.db')} >/dev/null 2>&1 && echo leaked || echo hidden) > claude.txt`;
const kernel = () => h.nexus.kernel;

beforeEach(async () => {
  // Outside /tmp: the sandbox's private /tmp would hide a data dir there anyway; this one is hidden by NEXUS.
  // So it is made here, under /var/tmp, and only handed to the world to remove.
  w = world();
  dir = w.own(mkdtempSync('/var/tmp/nexus-claude-acp-'));
  h = await harness({ dir: join(dir, 'data'), modules: { governance: true, turns: true, external: true } });
  // Claude Code also sends requests without tools (a title, a quota probe): only the turn with Bash calls it.
  model = await startAnthropicModel((req) =>
    req.toolResults.length
      ? { text: 'done' }
      : req.toolNames.includes('Bash')
        ? { call: { name: 'Bash', input: { command: command(), description: 'write claude.txt' } } }
        : { text: 'ok' },
  );
  w.defer(() => model.close());
  w.defer(() => h.cleanup());
});
afterEach(() => w.cleanup());

function agent(rules: ApprovalRule[] = []): string {
  const ws = join(dir, 'ws');
  // Inside the sandbox only the workspace is writable: Claude Code's home (settings, sessions) lives there.
  const home = join(ws, '.home');
  mkdirSync(home, { recursive: true });
  saveAgent(kernel(), {
    name: 'claude',
    mode: 'ask',
    approval_rules: rules,
    workspace: ws,
    model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'chosen by Claude Code' },
    network: { allow: ['127.0.0.1'] },
    acp: {
      command: process.execPath,
      args: [ADAPTER],
      env: {
        HOME: home,
        CLAUDE_CODE_EXECUTABLE: CLAUDE,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'sk-ant-dummy',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
    },
  });
  return ws;
}
const until = async (f: () => boolean, ms = 60_000) => {
  for (const t0 = Date.now(); !f() && Date.now() - t0 < ms;) await new Promise((r) => setTimeout(r, 50));
  expect(f()).toBe(true);
};
const withBash = () => model.requests.filter((r) => r.toolNames.includes('Bash'));

describe.skipIf(!ready)('Claude Code through claude-agent-acp in NEXUS sandbox', () => {
  it('its Bash permission request parks a card; approved, the command runs in the workspace, cannot read the data dir, and the model reads its result', async () => {
    const ws = agent();
    const { done } = startAcpRun(kernel(), { agent: 'claude', prompt: 'write claude.txt' });
    await until(() => kernel().inbox.pending().length === 1);
    const card = kernel().inbox.pending()[0]!;
    expect(kernel().getRow(card.id)).toMatchObject({ tool: 'bash', input: { command: command() } });
    expect(existsSync(join(ws, 'claude.txt'))).toBe(false);
    kernel().approve(card.id, { by: 'person:test' });
    const ended = await done;
    expect(ended.status, ended.error ?? '').toBe('succeeded');
    expect(ended.final_answer).toContain('done');
    expect(existsSync(join(dir, 'data', 'nexus.db'))).toBe(true);
    expect(readFileSync(join(ws, 'claude.txt'), 'utf8')).toBe('hidden\n');
    expect(withBash().length).toBe(2);
    expect(kernel().getRow(card.id)).toMatchObject({ state: 'succeeded', granted_by: 'person' });
  }, 120_000);

  it('denied with a reason, the command does not run, the model reads the refusal and the reason, and the reason is on the record', async () => {
    const ws = agent();
    const { done } = startAcpRun(kernel(), { agent: 'claude', prompt: 'write claude.txt' });
    await until(() => kernel().inbox.pending().length === 1);
    const card = kernel().inbox.pending()[0]!;
    kernel().deny(card.id, { by: 'person:test', reason: 'Not in this project.' });
    const ended = await done;
    expect(ended.status, ended.error ?? '').toBe('succeeded');
    expect(existsSync(join(ws, 'claude.txt'))).toBe(false);
    expect(withBash().length).toBe(2);
    // ACP's reject carries no reason: the adapter tells its model a fixed refusal…
    expect(withBash()[1]!.toolResults).toEqual(['User refused permission to run tool']);
    // …and, queued as the next line (the adapter queues prompts), the reason, read with the refusal.
    expect(JSON.stringify(withBash()[1]!.body.messages)).toContain(JSON.stringify(`NEXUS denied ${command()}: Not in this project.`).slice(1, -1));
    expect(kernel().getRow(card.id)).toMatchObject({ state: 'failed', error: { code: 'approval_denied', detail: 'Not in this project.' } });
  }, 120_000);

  it("a deny rule on the command decides without a card: the rule reads Claude's real command, not the adapter's first empty report", async () => {
    const ws = agent([{ tool: 'bash', path: 'command', match: '*nexus.db*', verdict: 'deny', reason: 'Never touch the database.' }]);
    const ended = await startAcpRun(kernel(), { agent: 'claude', prompt: 'write claude.txt' }).done;
    expect(ended.status, ended.error ?? '').toBe('succeeded');
    expect(existsSync(join(ws, 'claude.txt'))).toBe(false);
    expect(withBash()[1]!.toolResults).toEqual(['User refused permission to run tool']);
    expect(JSON.stringify(withBash()[1]!.body.messages)).toContain('Never touch the database.');
    const rows = kernel().listRows(ended.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tool: 'bash', input: { command: command() }, state: 'failed', error: { detail: 'Never touch the database.' } });
  }, 120_000);

  it('Stop all while its card waits cancels the session and kills its process group; nothing ran', async () => {
    const ws = agent();
    const { done } = startAcpRun(kernel(), { agent: 'claude', prompt: 'write claude.txt' });
    await until(() => kernel().inbox.pending().length === 1);
    const [proc] = listProcesses(h.nexus.db);
    expect(proc).toBeDefined();
    expect(await dispatch(h.nexus.handlers, 'stopAll', {}, { door: 'internal' })).toMatchObject({ ok: true });
    expect((await done).status).toBe('canceled');
    expect(() => process.kill(-proc!.pgid, 0)).toThrow();
    expect(listProcesses(h.nexus.db)).toEqual([]);
    expect(existsSync(join(ws, 'claude.txt'))).toBe(false);
    expect(kernel().inbox.pending()).toEqual([]);
  }, 120_000);
});
