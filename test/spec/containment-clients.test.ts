// Connected clients cannot answer NEXUS for themselves (issue 20.6, DESIGN §7.3): the hook's credential only
// asks; a call naming the data dir is refused; a weakened client wall is refused with the sentence to
// reconnect; a call that asks to leave the client's sandbox is always a card, whatever the rules, mode or trust.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { createNexus, type Nexus } from '../../electron/app.js';
import { startSocketDoor, type SocketDoor } from '../../electron/doors/socket.js';
import { world, type World } from '../support/world.js';
import { HOOK_CREDENTIAL_FILE, readCredential } from '../../electron/doors/credential.js';
import { dispatch } from '../../electron/api/dispatch.js';
import { saveAgent } from '../../electron/agents/profiles.js';
import { planClaudeSettings } from '../../electron/external/connect/claude-settings.js';
import type { ApprovalRule } from '../../shared/types.js';

let nexus: Nexus;
let door: SocketDoor;
let root: string;
let dataDir: string;
let project: string;
let w: World;
beforeEach(async () => {
  w = world();
  root = w.dir('clients');
  dataDir = join(root, 'data');
  project = join(root, 'proj');
  mkdirSync(join(root, 'home'));
  mkdirSync(project);
  nexus = await createNexus({ dataDir, clock: w.clock, env: { HOME: join(root, 'home') }, modules: { external: true, governance: true } });
  w.defer(() => nexus.close());
  door = await startSocketDoor(nexus);
  w.defer(() => door.close());
});
afterEach(() => w.cleanup());

/** One request on the control socket with a given token. */
function call(token: string, method: string, input: unknown = {}): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve, reject) => {
    const c = createConnection(door.path);
    let buf = '';
    c.setEncoding('utf8');
    c.on('connect', () => c.write(`${JSON.stringify({ id: 0, method: 'auth', input: { token } })}\n${JSON.stringify({ id: 1, method, input })}\n`));
    c.on('data', (d: string) => {
      buf += d;
      for (const line of buf.split('\n').slice(0, -1)) {
        const m = JSON.parse(line) as { id: unknown; ok: boolean };
        if (m.id === 1 || (m.id === 0 && !m.ok)) {
          c.destroy();
          resolve(m);
        }
      }
    });
    c.on('error', reject);
  });
}
const hookToken = () => readCredential(dataDir, HOOK_CREDENTIAL_FILE);
const event = (tool_name: string, tool_input: unknown) => ({ session_id: 's1', cwd: project, hook_event_name: 'PreToolUse', tool_name, tool_input });
const agent = (rules: ApprovalRule[], mode: 'ask' | 'rules' | 'bypass') =>
  saveAgent(nexus.kernel, {
    name: 'claude-code-proj',
    mode,
    approval_rules: rules,
    model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'x' },
    external: { client: 'claude-code', project },
  });
const wall = () => {
  mkdirSync(join(project, '.claude'), { recursive: true });
  const spec = { node: '/usr/bin/node', script: '/x/nexus-hook.mjs', dataDir, timeoutS: 900, whenDown: 'deny' as const };
  writeFileSync(join(project, '.claude', 'settings.json'), planClaudeSettings(null, 'f', 'connect', spec).after);
};
async function parked(): Promise<string> {
  const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
  const row = nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command: 'ls' }, origin: 'model' });
  return row.id;
}

describe('the hook credential only asks', () => {
  it.each([
    ['inboxApprove', (id: string) => ({ id })],
    ['inboxDeny', (id: string) => ({ id })],
    ['stopAll', () => ({})],
    ['resume', () => ({})],
    ['settingsSet', () => ({ key: 'orchestration.enabled', value: false })],
    ['agentsSave', () => ({ name: 'x', mode: 'bypass', approval_rules: [], model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'x' } })],
    ['subscribe', () => ({})],
    ['webOpen', () => ({})],
  ])('%s is refused with the hook credential and nothing changes', async (method, input) => {
    const row = await parked();
    const before = JSON.stringify([nexus.kernel.getRow(row), readFileSync(join(dataDir, 'nexus.db')).length]);
    const r = await call(hookToken(), method, input(row));
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('hook_credential');
    expect(r.error?.message).toMatch(/can only ask NEXUS about a connected client's tool call/);
    expect(JSON.stringify([nexus.kernel.getRow(row), readFileSync(join(dataDir, 'nexus.db')).length])).toBe(before);
    expect(nexus.kernel.getRow(row)?.state).toBe('needs_approval');
  });

  it('the person credential still decides, recorded person:cli', async () => {
    const row = await parked();
    const r = await call(readCredential(dataDir), 'inboxApprove', { id: row });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(nexus.kernel.getRow(row)?.approved_by).toBe('person:cli');
  });
});

describe("the client's wall, checked at every hook call", () => {
  it('no wall: the call is denied with the sentence to reconnect', async () => {
    const r = await call(hookToken(), 'externalToolUse', { client: 'claude-code', event: event('Bash', { command: 'ls' }), wait_ms: 1000 });
    expect(r.value).toMatchObject({ decision: 'deny' });
    expect((r.value as { reason: string }).reason).toMatch(/own sandbox is not in place \(its sandbox is off\).*run `nexus connect claude-code` again/);
  });
  it('wall in place: an allowed call is allowed; weakened in settings.local.json: denied', async () => {
    wall();
    agent([{ tool: 'bash', verdict: 'allow' }], 'rules');
    const ok = await call(hookToken(), 'externalToolUse', { client: 'claude-code', event: event('Bash', { command: 'ls' }), wait_ms: 1000 });
    expect(ok.value).toMatchObject({ decision: 'allow' });
    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { allowUnsandboxedCommands: true } }));
    const no = await call(hookToken(), 'externalToolUse', { client: 'claude-code', event: event('Bash', { command: 'ls' }), wait_ms: 1000 });
    expect((no.value as { reason: string }).reason).toMatch(/may ask to run unsandboxed.*nexus connect claude-code/);
  });
  it("a call that names the person's credential (in the data dir) is refused", async () => {
    wall();
    agent([{ tool: 'bash', verdict: 'allow' }], 'rules');
    const r = await call(hookToken(), 'externalToolUse', {
      client: 'claude-code',
      event: event('Bash', { command: `cat ${dataDir}/nexus.sock.token` }),
      wait_ms: 1000,
    });
    expect(r.value).toMatchObject({ decision: 'deny' });
    expect((r.value as { reason: string }).reason).toMatch(/inside NEXUS's data dir/);
  });
});

describe('escapes are always a card', () => {
  it.each([
    ['an allow rule', [{ tool: 'bash', verdict: 'allow' }] as ApprovalRule[], 'rules' as const, false],
    ['bypass', [] as ApprovalRule[], 'bypass' as const, false],
    ['session trust', [] as ApprovalRule[], 'ask' as const, true],
  ])('dangerouslyDisableSandbox parks under %s, marked, never trustable', async (_what, rules, mode, trust) => {
    agent(rules, mode);
    if (trust) {
      // The person trusts this session on an ordinary card first.
      const first = dispatch(
        nexus.handlers,
        'externalToolUse',
        { client: 'claude-code', event: event('Bash', { command: 'ls' }), wait_ms: 5000 },
        { door: 'internal' },
      );
      for (let i = 0; i < 200 && nexus.kernel.pendingCount() === 0; i++) await new Promise((r) => setTimeout(r, 5));
      const list = await dispatch(nexus.handlers, 'inboxList', {}, { door: 'internal' });
      const id = (list.ok ? (list.value as { id: string }[]) : [])[0]!.id;
      expect((await dispatch(nexus.handlers, 'inboxApprove', { id, trust_session: true }, { door: 'socket' })).ok).toBe(true);
      expect(await first).toMatchObject({ value: { decision: 'allow' } });
      expect(nexus.kernel.trust.isTrusted('claude-code-proj')).toBe(true);
    }
    const ac = new AbortController();
    const answer = dispatch(
      nexus.handlers,
      'externalToolUse',
      { client: 'claude-code', event: event('Bash', { command: 'ls', dangerouslyDisableSandbox: true }), wait_ms: 5000 },
      { door: 'internal', signal: ac.signal },
    );
    for (let i = 0; i < 200 && nexus.kernel.pendingCount() === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const items = await dispatch(nexus.handlers, 'inboxList', {}, { door: 'internal' });
    const card = (items.ok ? (items.value as { id: string; escape?: string; trustable?: boolean; containment?: string }[]) : [])[0]!;
    expect(card.escape).toMatch(/outside the client's sandbox/);
    expect(card.trustable).toBe(false);
    expect(card.containment).toMatch(/Claude Code's own sandbox/);
    const t = await dispatch(nexus.handlers, 'inboxApprove', { id: card.id, trust_session: true }, { door: 'socket' });
    expect(t.ok).toBe(false);
    ac.abort();
    expect(await answer).toMatchObject({ ok: true, value: { decision: 'deny' } });
  });
});

describe("Codex's wall: the policy its session's turn runs under (its rollout's turn_context)", () => {
  const model = { provider: 'anthropic' as const, baseURL: 'http://127.0.0.1:9', model: 'x' };
  const codexAgent = (rules: ApprovalRule[], mode: 'rules' | 'bypass') =>
    saveAgent(nexus.kernel, { name: 'codex-proj', mode, approval_rules: rules, model, external: { client: 'codex', project } });
  const rollout = () => join(root, 'rollout-2026-12-02T00-00-00-s1.jsonl');
  /** One turn_context line as Codex 0.169 writes it; `open` weakens it as the person (or a flag) would. */
  const turn = (open?: 'full' | 'network' | 'no-deny') => {
    const entries = [
      ...(open === 'no-deny' ? [] : [{ path: { type: 'path', path: realpathSync(dataDir) }, access: 'deny' }]),
      { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
      { path: { type: 'path', path: project }, access: 'write' },
    ];
    const payload =
      open === 'full'
        ? { turn_id: 't1', approval_policy: 'never', sandbox_policy: { type: 'danger-full-access' } }
        : {
            turn_id: 't1',
            approval_policy: 'on-request',
            sandbox_policy: { type: 'workspace-write', network_access: open === 'network' },
            file_system_sandbox_policy: { kind: 'restricted', entries },
            permission_profile: { network: open === 'network' ? 'enabled' : 'restricted' },
          };
    appendFileSync(rollout(), `${JSON.stringify({ timestamp: 'x', type: 'turn_context', payload })}\n`);
  };
  const codexEvent = (hook_event_name: string, tool_input: unknown, extra: Record<string, unknown> = {}) =>
    Object.assign(event('Bash', tool_input), { hook_event_name, turn_id: 't1', transcript_path: rollout() }, extra);
  const ask = (ev: unknown) => call(hookToken(), 'externalToolUse', { client: 'codex', event: ev, wait_ms: 1000 });

  it('no session record (--ephemeral: transcript_path null): denied, with the sentence to reconnect', async () => {
    codexAgent([{ tool: 'bash', verdict: 'allow' }], 'rules');
    const r = await ask(codexEvent('PreToolUse', { command: 'ls' }, { transcript_path: null }));
    expect((r.value as { reason: string }).reason).toMatch(/cannot see which sandbox this session runs in.*run `nexus connect codex` again/);
  });
  it.each([
    ['full', /sandbox is off \(danger-full-access\)/],
    ['network', /may use the network/],
    ['no-deny', /data dir is readable/],
  ] as const)('walled turn allowed; the same turn recorded as %s: denied with the sentence to reconnect', async (open, gap) => {
    codexAgent([{ tool: 'bash', verdict: 'allow' }], 'rules');
    turn();
    expect((await ask(codexEvent('PreToolUse', { command: 'ls' }))).value).toMatchObject({ decision: 'allow' });
    turn(open);
    const r = await ask(codexEvent('PreToolUse', { command: 'ls' }));
    expect(r.value).toMatchObject({ decision: 'deny', reason: expect.stringMatching(new RegExp(`${gap.source}.*run \`nexus connect codex\` again`)) });
  });
  it.each([
    ['an allow rule', 'rules'],
    ['bypass', 'bypass'],
  ] as const)('an escalation (PermissionRequest after an allowed PreToolUse) is a card marked as an escape under %s, never granted', async (_what, mode) => {
    codexAgent(mode === 'rules' ? [{ tool: 'bash', verdict: 'allow' }] : [], mode);
    turn();
    expect((await ask(codexEvent('PreToolUse', { command: 'cat x' }))).value).toMatchObject({ decision: 'allow' });
    const ac = new AbortController();
    const answer = dispatch(
      nexus.handlers,
      'externalToolUse',
      { client: 'codex', event: codexEvent('PermissionRequest', { command: 'cat x', description: 'need it' }), wait_ms: 5000 },
      { door: 'internal', signal: ac.signal },
    );
    for (let i = 0; i < 200 && nexus.kernel.pendingCount() === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const items = await dispatch(nexus.handlers, 'inboxList', {}, { door: 'internal' });
    const card = (items.ok ? (items.value as { id: string; escape?: string; trustable?: boolean; containment?: string }[]) : [])[0]!;
    expect(card.escape).toMatch(/Codex asks to run this Bash call outside its sandbox/);
    expect(card.trustable).toBe(false);
    expect(card.containment).toMatch(/as `nexus connect codex` configures it/);
    ac.abort();
    expect(await answer).toMatchObject({ ok: true, value: { decision: 'deny' } });
    expect(nexus.kernel.getRow(card.id)?.approved_by ?? null).toBeNull();
  });
});
