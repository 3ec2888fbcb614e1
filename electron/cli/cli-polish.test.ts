// QA findings on the command line, driven in process: a real kernel (createNexus) behind the real control
// socket, `main(argv, io)` as the user types it, output captured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNexus, type Nexus } from '../app.js';
import { startSocketDoor, type SocketDoor } from '../doors/socket.js';
import { main } from './main.js';
import { world } from '../../test/support/world.js';

const w = world();
let dir: string;
let nexus: Nexus;
let door: SocketDoor;

beforeAll(async () => {
  dir = w.dir('cli-polish');
  nexus = await createNexus({ dataDir: join(dir, 'data') });
  w.defer(() => nexus.close());
  door = await startSocketDoor(nexus);
  w.defer(() => door.close());
});
afterAll(() => w.cleanup());

async function nx(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}
const withDir = (...argv: string[]) => nx(...argv, '--data-dir', join(dir, 'data'));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const agent = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
  mode: 'ask',
  ...extra,
});

describe('files that start with a UTF-8 byte-order mark are JSON like any other', () => {
  it('agents add, run create --rules and rules check accept a BOM', async () => {
    const a = file('bom-agent.json', `\uFEFF${JSON.stringify(agent('bom'))}`);
    expect((await withDir('agents', 'add', a)).code).toBe(0);
    const rules = file('bom-rules.json', `\uFEFF${JSON.stringify([{ tool: 'bash', verdict: 'ask' }])}`);
    const run = await withDir('run', 'create', '--mode', 'rules', '--rules', rules);
    expect(run.code, run.err).toBe(0);
    const check = await nx('rules', 'check', rules);
    expect(check.code, check.out).toBe(0);
  });
  it('a file that is not JSON still says where', async () => {
    const r = await withDir('agents', 'add', file('broken.json', '\uFEFF{"name": '));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the agent file: .*broken\.json is not JSON \(line 1 column \d+\)/);
  });
});

describe('rule errors and warnings are said once, each with one "rule N:"', () => {
  it('agents add with a bad rule: a head line, then each error once', async () => {
    const r = await withDir(
      'agents',
      'add',
      file('colour.json', JSON.stringify(agent('colour', { approval_rules: [{ tool: 'bash', verdict: 'allow', colour: 'red' }] }))),
    );
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/rule 0: rule 0/);
    expect(r.err.match(/unknown key "colour"/g)).toHaveLength(1);
    expect(r.err).toMatch(/^nexus: approval_rules are invalid \(invalid_rules\)\n {2}rule 0: unknown key "colour"/);
  });
  it('run create --rules with a bad rule: the same', async () => {
    const r = await withDir(
      'run',
      'create',
      '--mode',
      'rules',
      '--rules',
      file('bad-rules.json', JSON.stringify([{ tool: 'bash', verdict: 'allow', colour: 1 }])),
    );
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/rule 0: rule 0/);
    expect(r.err.match(/unknown key "colour"/g)).toHaveLength(1);
  });
  it('the API message (what the window shows) names the rule once', async () => {
    const res = await Promise.resolve()
      .then(() => nexus.handlers.runsCreate!({ mode: 'rules', rules: [{ tool: 'bash', verdict: 'allow', colour: 1 }] } as never, { by: 'test' } as never))
      .then(
        () => null,
        (e: Error) => e.message,
      );
    expect(res).toMatch(/^The approval rules are invalid: rule 0: unknown key "colour"/);
  });
  it('agents add warnings name their rule once', async () => {
    const r = await withDir(
      'agents',
      'add',
      file(
        'warn.json',
        JSON.stringify(agent('warn', { mode: 'rules', approval_rules: [{ tool: 'bash', path: 'command', match: 'cat *', verdict: 'allow' }] })),
      ),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/warning: rule 0: /);
    expect(r.out).not.toMatch(/rule 0: rule 0/);
  });
});

describe('global options before the command', () => {
  it('nexus --data-dir D inbox, nexus --json --data-dir=D status', async () => {
    const inbox = await nx('--data-dir', join(dir, 'data'), 'inbox');
    expect(inbox.code, inbox.err).toBe(0);
    const status = await nx('--json', `--data-dir=${join(dir, 'data')}`, 'status');
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({ pending: expect.any(Number) });
  });
  it('--data-dir without a folder is a usage error; a lone global option still shows the usage', async () => {
    expect((await nx('--data-dir')).code).toBe(2);
    const r = await nx('--json');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/usage: nexus/);
  });
});

describe('rules commands are pure but accept --data-dir like every command', () => {
  it('rules check FILE --data-dir D and rules eval … --data-dir D exit as without it', async () => {
    const rules = file('ok-rules.json', JSON.stringify([{ tool: 'bash', verdict: 'ask' }]));
    expect((await withDir('rules', 'check', rules)).code).toBe(0);
    expect((await nx('--data-dir', join(dir, 'nowhere'), 'rules', 'check', rules)).code).toBe(0);
    const ev = await withDir('rules', 'eval', '--mode', 'rules', '--rules', rules, '--tool', 'bash', '--json');
    expect(ev.code, ev.err).toBe(0);
    expect(JSON.parse(ev.out)).toMatchObject({ outcome: 'parked' });
  });
});

describe('agents add says what it did', () => {
  it('a new name is "saved", the same name again is "updated" (DESIGN: add is the edit path); --json has replaced', async () => {
    const f = file('twice.json', JSON.stringify(agent('twice')));
    const first = await withDir('agents', 'add', f, '--json');
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ replaced: false, agent: { name: 'twice' } });
    writeFileSync(f, JSON.stringify(agent('twice', { mode: 'rules' })));
    const again = await withDir('agents', 'add', f);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^updated agent twice \(mode rules\)/);
    expect(JSON.parse((await withDir('agents', 'add', f, '--json')).out)).toMatchObject({ replaced: true });
    // A removed agent's name starts fresh.
    expect((await withDir('agents', 'remove', 'twice')).code).toBe(0);
    expect((await withDir('agents', 'add', f)).out).toMatch(/^saved agent twice/);
  });
  it('an agent file that is an array (or not an object) is refused in words', async () => {
    const r = await withDir('agents', 'add', file('array.json', JSON.stringify([agent('arr')])));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the agent file must be a JSON object \(got an array\)/);
    expect(r.err).not.toMatch(/Invalid input/);
    expect((await withDir('agents', 'add', file('str.json', '"x"'))).err).toMatch(/must be a JSON object \(got a string\)/);
  });
});

describe('serve --port on a port in use', () => {
  it('says which port and what to do, exit 1, and leaves the data dir free', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const d = join(dir, 'serve-busy');
      const r = await nx('serve', '--data-dir', d, '--port', String(port));
      expect(r.code).toBe(1);
      expect(r.err).toBe(`nexus: port ${port} is in use: pick another --port, or --port 0 for any free one\n`);
      // The kernel it opened was closed: the lock is released, so another kernel can take the data dir.
      const again = await createNexus({ dataDir: d, modules: {} });
      await again.close();
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});

describe('human output: time left, held hops', () => {
  it('timeLeft reads as time left', async () => {
    const { timeLeft } = await import('./common.js');
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(timeLeft('2026-01-01T23:59:30Z', now)).toBe('23h 59m left');
    expect(timeLeft('2026-01-01T00:12:00Z', now)).toBe('12m left');
    expect(timeLeft('2026-01-01T00:00:20Z', now)).toBe('under a minute left');
    expect(timeLeft('2025-12-31T23:00:00Z', now)).toBe('expired');
  });
  it('inbox shows a parked card with its time left, not the ISO deadline (--json keeps expires_at)', async () => {
    const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const row = nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command: 'echo parked-for-inbox' }, origin: 'model' });
    expect(row.state).toBe('needs_approval');
    const r = await withDir('inbox');
    const line = r.out.split('\n').find((l) => l.startsWith(row.id))!;
    expect(line).toMatch(/2[34]h \d+m left$/);
    expect(line).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const card = JSON.parse((await withDir('inbox', '--json')).out).find((c: { id: string }) => c.id === row.id);
    expect(card.expires_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await withDir('deny', row.id)).code).toBe(0);
  });
  it('runs show: a held orchestration hop reads "held", with its request, not "failed hop_held"', async () => {
    const { rowLine } = await import('./runs-commands.js');
    const { heldResult } = await import('../../shared/orchestration/holds.js');
    const result = heldResult({ request_id: 'req-123', chain_id: 'c1', hop: 2 } as never);
    const line = rowLine({
      id: 'r1',
      origin: 'model',
      tool: 'delegate_task',
      state: 'failed',
      error: { code: 'hop_held', detail: 'held' },
      result: result as never,
    });
    expect(line[3]).toBe('held');
    expect(line[4]).toBe("orchestration: awaiting a person's approval, request req-123");
    expect(rowLine({ id: 'r2', origin: 'model', tool: 'bash', state: 'failed', error: { code: 'tool_error', detail: 'boom' } })[3]).toBe('failed');
  });
});

describe('"Trust for this session" can be seen and taken back', () => {
  it('approve --trust-session shows in status and trust list; trust revoke makes the next park wait again', async () => {
    expect((await withDir('agents', 'add', file('trusty.json', JSON.stringify(agent('trusty'))))).code).toBe(0);
    const run = nexus.kernel.createRun({ agent: 'trusty', mode: 'ask' });
    const park = (n: number) => nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command: `echo trust-${n}` }, origin: 'model' });
    const first = park(1);
    expect(first.state).toBe('needs_approval');
    expect((await withDir('approve', first.id, '--trust-session')).code).toBe(0);
    expect(JSON.parse((await withDir('status', '--json')).out).trusted_agents).toEqual(['trusty']);
    expect((await withDir('status')).out).toMatch(/trusted for this session: trusty \(nexus trust revoke AGENT\)/);
    const listed = JSON.parse((await withDir('trust', '--json')).out);
    expect(listed).toMatchObject([{ agent: 'trusty', scope: { kind: 'agent' }, covers: 'every call that would ask you', ends: 'when NEXUS quits' }]);
    expect((await withDir('trust')).out).toMatch(/trusty: every call that would ask you; ends when NEXUS quits/);
    expect(park(2).state).not.toBe('needs_approval'); // granted by trust

    const revoked = await withDir('trust', 'revoke', 'trusty', '--json');
    expect(revoked.code, revoked.err).toBe(0);
    expect(JSON.parse(revoked.out)).toEqual({ agent: 'trusty', revoked: true, count: 1 });
    expect(JSON.parse((await withDir('status', '--json')).out).trusted_agents).toEqual([]);
    const third = park(3);
    expect(third.state).toBe('needs_approval');
    expect((await withDir('trust', 'revoke', 'trusty')).out).toMatch(/trusty was not trusted for this session/);
    expect((await withDir('trust', 'revoke')).code).toBe(2);
    expect((await withDir('deny', third.id)).code).toBe(0);
  });

  it('approve --trust-call trusts only that command; trust list names it; trust revoke --id takes it back', async () => {
    expect((await withDir('agents', 'add', file('scoped.json', JSON.stringify(agent('scoped'))))).code).toBe(0);
    const run = nexus.kernel.createRun({ agent: 'scoped', mode: 'ask' });
    const park = (command: string) => nexus.kernel.submitRow(run.id, { tool: 'bash', input: { command }, origin: 'model' });
    const first = park('echo one');
    expect((await withDir('approve', first.id, '--trust-call')).code).toBe(0);
    expect((await withDir('approve', park('echo x').id, '--trust-call', '--trust-session')).code).toBe(2);
    const grants = JSON.parse((await withDir('trust', '--json')).out);
    expect(grants).toMatchObject([{ agent: 'scoped', covers: 'bash calls with command "echo one" exactly' }]);
    expect(park('echo one').state).not.toBe('needs_approval');
    expect(park('echo two').state).toBe('needs_approval');
    const out = await withDir('trust', 'revoke', '--id', grants[0].id);
    expect(out.out).toMatch(/taken back: its next calls that need approval wait for a person/);
    expect(park('echo one').state).toBe('needs_approval');
    expect((await withDir('trust', 'revoke', 'scoped', '--id', grants[0].id)).code).toBe(2);
  });
});
