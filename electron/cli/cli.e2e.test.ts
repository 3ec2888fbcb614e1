// The socket door + CLI end to end: build, spawn `node bin/nexus.cjs serve --data-dir TMP`, drive it with CLI
// commands as separate processes, then stop it (SIGTERM) and check nothing is left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { startScriptedModel } from '../../test/support/scripted-model.js';
import { stopChild, world } from '../../test/support/world.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'nexus.cjs');
const w = world();
let dir: string;
let serve: ChildProcess;
let serveOut = '';

function nexus(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NEXUS_DATA_DIR: dir } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
    });
  });
}
const json = async (...args: string[]) => {
  const r = await nexus(...args, '--json');
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
};

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
  dir = w.dir('cli');
  serve = spawn(process.execPath, [BIN, 'serve', '--data-dir', dir, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = serve;
  w.defer(() => stopChild(started));
  serve.stdout!.on('data', (c) => (serveOut += c));
  serve.stderr!.on('data', (c) => (serveOut += c));
  for (let i = 0; i < 200 && !serveOut.includes('control socket:'); i++) await new Promise((r) => setTimeout(r, 50));
  if (!serveOut.includes('control socket:')) throw new Error(`serve did not start: ${serveOut}`);
}, 60_000);

afterAll(() => w.cleanup());

describe('nexus serve', () => {
  it('prints the URL line and opens the control socket with mode 0600', () => {
    expect(serveOut).toMatch(/NEXUS is serving at http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}\n/);
    expect(statSync(join(dir, 'nexus.sock')).mode & 0o777).toBe(0o600);
  });
  it('a second kernel on the same data dir refuses clearly', async () => {
    const r = await nexus('serve', '--data-dir', dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Another NEXUS kernel \(pid \d+\) is already running on the data dir/);
  });
});

describe('kernel commands through the socket', () => {
  it('status', async () => {
    const s = await json('status');
    expect(s).toMatchObject({ version: expect.any(String), pending: 0, stop_all: false });
    expect((await nexus('status')).out).toMatch(/pending cards: 0/);
  });

  it('agents add FILE | list | remove NAME; invalid rules exit 1 with located errors', async () => {
    const file = join(dir, 'agent.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'alice',
        model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
        mode: 'ask',
        approval_rules: [{ tool: 'bash', verdict: 'allow' }],
        workspace: 'alice-ws',
      }),
    );
    expect((await nexus('agents', 'add', file)).out).toMatch(/saved agent alice/);
    expect((await json('agents', 'show', 'alice')).workspace).toBe(join(dir, 'alice-ws')); // relative to the file
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        name: 'bob',
        model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'm' },
        mode: 'ask',
        approval_rules: [{ tool: 'bash' }],
      }),
    );
    const r = await nexus('agents', 'add', bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/invalid_rules/);
    expect(r.err).toMatch(/rule 0/);
    expect((await json('agents', 'list')).map((a: { name: string }) => a.name)).toEqual(['alice']);
    expect(await json('agents', 'remove', 'alice')).toEqual({ removed: true, runs_stopped: 0 });
  });

  it('agents create FILE refuses a taken name; agents replace FILE refuses a missing one; neither changes anything then', async () => {
    const file = join(dir, 'carol.json');
    const carol = (instructions: string) =>
      writeFileSync(
        file,
        JSON.stringify({ name: 'carol', model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' }, mode: 'ask', instructions }),
      );
    carol('first');
    const missing = await nexus('agents', 'replace', file);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/No agent named carol: nothing was saved.*\(not_found\)/);
    expect((await json('agents', 'list')).map((a: { name: string }) => a.name)).not.toContain('carol');

    expect((await nexus('agents', 'create', file)).out).toMatch(/^created agent carol \(mode ask\)\nsandbox: on/);
    carol('second');
    const taken = await nexus('agents', 'create', file, '--json');
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.out)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await json('agents', 'show', 'carol')).instructions).toBe('first');

    const replaced = await json('agents', 'replace', file);
    expect(replaced).toMatchObject({ agent: { name: 'carol', instructions: 'second' }, warnings: [] });
    expect(replaced).not.toHaveProperty('replaced');
    expect((await nexus('agents', 'replace', file)).out).toMatch(/^updated agent carol \(mode ask\)\n/);
    // add keeps its contract: create or replace, and the JSON says which.
    expect(await json('agents', 'add', file)).toMatchObject({ replaced: true });
    expect(await json('agents', 'remove', 'carol')).toEqual({ removed: true, runs_stopped: 0 });
  });

  it('run create + append: an author row is granted by its origin and runs', async () => {
    const run = await json('run', 'create', '--mode', 'rules');
    expect(run).toMatchObject({ agent: null, status: 'running', mode: 'rules' });
    const r = await nexus('append', run.id, '--tool', 'bash', '--input', '{"command":"echo from-cli"}', '--wait');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/succeeded\nfrom-cli/);
  });

  it('a parked author row lists on the inbox (DESIGN shape) and is approved by its id; runs show has the DESIGN shape', async () => {
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify([{ tool: 'bash', verdict: 'ask', origin: 'author' }]));
    const run = await json('run', 'create', '--mode', 'bypass', '--rules', rules);
    const row = await json('append', run.id, '--tool', 'bash', '--input', '{"command":"echo approved"}');
    expect(row.state).toBe('needs_approval');
    const inbox = await json('inbox');
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({
      id: row.id,
      kind: 'autonomy',
      agent: null,
      tool: 'bash',
      target: 'echo approved',
      run_id: run.id,
      expires_at: expect.any(String),
    });
    expect((await nexus('inbox')).out).toContain(row.id);
    expect(await json('approve', row.id)).toEqual({ id: row.id, state: 'running' });
    const again = await nexus('approve', row.id);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/no longer pending/);
    let shown = await json('runs', 'show', run.id);
    for (let i = 0; i < 50 && shown.rows[0].state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      shown = await json('runs', 'show', run.id);
    }
    expect(shown).toMatchObject({ id: run.id, agent: null, status: 'running', rows: [{ id: row.id, origin: 'author', tool: 'bash', state: 'succeeded' }] });
    // DESIGN §5 lists `error?`: a row that did not fail carries no error key at all.
    expect(Object.hasOwn(shown.rows[0], 'error')).toBe(false);
  });

  it('deny ID --reason puts the reason in error.detail; runs stop cancels; runs list lists', async () => {
    const rules = join(dir, 'rules2.json');
    writeFileSync(rules, JSON.stringify([{ tool: 'write', verdict: 'ask', origin: 'author' }]));
    const run = await json('run', 'create', '--mode', 'ask', '--rules', rules);
    const a = await json('append', run.id, '--tool', 'write', '--input', '{"path":"x.txt","content":"x"}');
    const b = await json('append', run.id, '--tool', 'write', '--input', '{"path":"y.txt","content":"y"}');
    expect((await nexus('deny', a.id, '--reason', 'not now')).code).toBe(0);
    const shown = await json('runs', 'show', run.id);
    expect(shown.rows[0]).toMatchObject({ id: a.id, state: 'failed', error: { code: 'approval_denied', detail: 'not now' } });
    expect(await json('runs', 'stop', run.id)).toMatchObject({ id: run.id, status: 'canceled' });
    expect((await json('runs', 'show', run.id)).rows[1]).toMatchObject({ id: b.id, state: 'canceled' });
    expect((await json('runs', 'list')).map((r: { id: string }) => r.id)).toContain(run.id);
    expect((await nexus('runs', 'show', run.id)).out).toMatch(/approval_denied: not now/);
  });

  it('usage errors exit 2; failures exit 1 with the message on stderr', async () => {
    expect((await nexus('append')).code).toBe(2);
    expect((await nexus('run', 'create')).code).toBe(2);
    expect((await nexus('runs', 'frobnicate')).code).toBe(2);
    expect((await nexus('approve', 'a', 'b')).code).toBe(2);
    expect((await nexus('append', 'x', '--tool', 't', '--input', '{nope')).code).toBe(2);
    expect((await nexus('status', '--bogus')).code).toBe(2);
    const missing = await nexus('runs', 'show', 'run_nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/No run "run_nope"/);
  });

  it('a clear error when no kernel is running for that data dir', async () => {
    const empty = w.dir('cli-none');
    const r = await nexus('status', '--data-dir', empty);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/No NEXUS kernel is running for the data dir/);
  });

  it('the socket speaks newline-delimited JSON, validates input, and streams events to subscribers', async () => {
    const sock = createConnection(join(dir, 'nexus.sock'));
    const lines: Record<string, unknown>[] = [];
    let buf = '';
    sock.on('data', (c) => {
      buf += c;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    await new Promise((r) => sock.once('connect', r));
    // The first line authenticates: the launch's credential from the data dir (0600), as the CLI sends it.
    sock.write(`${JSON.stringify({ id: 0, method: 'auth', input: { token: readFileSync(join(dir, 'nexus.sock.token'), 'utf8').trim() } })}\n`);
    sock.write('not json\n');
    sock.write(`${JSON.stringify({ id: 1, method: 'runsCreate', input: { mode: 'sideways' } })}\n`);
    sock.write(`${JSON.stringify({ id: 2, method: 'subscribe' })}\n`);
    sock.write(`${JSON.stringify({ id: 3, method: 'runsCreate', input: { mode: 'bypass' } })}\n`);
    // Every answer and the event: an answer the door awaits (dispatch) may follow the events its own handling sent.
    const arrived = () =>
      [0, null, 1, 2, 3].every((id) => lines.some((l) => l.id === id)) &&
      lines.some((l) => (l.event as { type?: string } | undefined)?.type === 'runs_changed');
    for (let i = 0; i < 100 && !arrived(); i++) await new Promise((r) => setTimeout(r, 20));
    sock.destroy();
    expect(lines.find((l) => l.id === 0)).toEqual({ id: 0, ok: true, value: { authenticated: true } });
    expect(lines.find((l) => l.id === null)).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    expect(lines.find((l) => l.id === 1)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(lines.find((l) => l.id === 2)).toMatchObject({ ok: true, value: { subscribed: true } });
    expect(lines.find((l) => l.id === 3)).toMatchObject({ ok: true, value: { mode: 'bypass' } });
    expect(lines.some((l) => (l.event as { type?: string } | undefined)?.type === 'runs_changed')).toBe(true);
  });
});

describe('nexus run AGENT PROMPT --wait (a real turn against a scripted model)', () => {
  it('the model call parks, the person approves it from the CLI, the run ends and --wait prints the answer', async () => {
    const model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo parked-by-mode' } }] }, { text: 'all done' }] });
    try {
      const file = join(dir, 'turner.json');
      writeFileSync(file, JSON.stringify({ name: 'turner', model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted' }, mode: 'ask' }));
      expect((await nexus('agents', 'add', file)).code).toBe(0);
      const waiting = nexus('run', 'turner', 'say hi', '--wait');
      let inbox: { id: string; agent: string; tool: string; target: string }[] = [];
      for (let i = 0; i < 200 && !inbox.length; i++) {
        await new Promise((r) => setTimeout(r, 50));
        inbox = (await json('inbox')).filter((c: { agent: string }) => c.agent === 'turner');
      }
      expect(inbox[0]).toMatchObject({ agent: 'turner', tool: 'bash', target: 'echo parked-by-mode' });
      expect((await nexus('approve', inbox[0].id)).code).toBe(0);
      const done = await waiting;
      expect(done.err).toBe(`waiting for approval: bash echo parked-by-mode — nexus approve ${inbox[0].id} | nexus deny ${inbox[0].id}\n`);
      expect(done.code).toBe(0);
      expect(done.out.trim()).toBe('all done');
      expect(model.requests[1].toolResults[0].text).toContain('parked-by-mode');
    } finally {
      await model.close();
    }
  });
});

describe('shutdown', () => {
  it('SIGTERM closes cleanly: exit 0, socket and lock removed, no process left', async () => {
    const exited = new Promise<number | null>((r) => serve.once('exit', (code) => r(code)));
    serve.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'nexus.sock'))).toBe(false);
    expect(existsSync(join(dir, 'nexus.sock.token'))).toBe(false);
    expect(existsSync(join(dir, 'nexus.lock'))).toBe(false);
  });
});
