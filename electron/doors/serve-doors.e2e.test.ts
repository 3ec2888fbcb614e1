// The doors of a real `nexus serve` process (the built dist, as a person runs it), driven from outside:
// - an agent's shell that cannot read the data dir's credential (here: bwrap masks it, as the sandbox hides the
//   data dir) runs `nexus approve` on its own card and is refused; the card stays parked;
// - one WebSocket text frame `null` (and friends) no longer ends the process;
// - an error thrown from a timer inside the process is logged and the kernel keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CREDENTIAL_FILE } from './credential.js';
import { stopChild, world } from '../../test/support/world.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'nexus.cjs');

interface Served {
  dir: string;
  child: ChildProcess;
  log: () => string;
}
const w = world();

async function serve(env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const dir = w.dir('doors');
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  w.defer(() => stopChild(child));
  let log = '';
  child.stdout!.on('data', (c) => (log += c));
  child.stderr!.on('data', (c) => (log += c));
  for (let i = 0; i < 400 && !log.includes('control socket:') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  const s = { dir, child, log: () => log };
  if (!log.includes('control socket:')) throw new Error(`nexus serve did not start: ${log}`);
  return s;
}

function nexus(dir: string, args: string[], wrap: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const [cmd, ...pre] = wrap.length ? wrap : [process.execPath];
  const argv = wrap.length ? [...pre, process.execPath, BIN, ...args, '--data-dir', dir] : [BIN, ...args, '--data-dir', dir];
  return new Promise((resolve) =>
    execFile(cmd!, argv, { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    ),
  );
}

/** An authenticated browser-host socket, with the address `nexus open` prints. */
async function browser(dir: string): Promise<{ ws: WebSocket; call(method: string, input: unknown): Promise<{ ok: boolean; value?: unknown }> }> {
  const opened = await nexus(dir, ['open', '--json']);
  const url = new URL(JSON.parse(opened.out).url);
  const ws = new WebSocket(`ws://${url.host}/api`, { headers: { origin: url.origin } });
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ auth: { launch: url.hash.slice('#token='.length) } }));
  await new Promise((r) => ws.once('message', r));
  let seq = 0;
  const call = (method: string, input: unknown) =>
    new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
      const id = `c${++seq}`;
      const on = (d: WebSocket.RawData) => {
        const m = JSON.parse(d.toString());
        if (m.id === id) {
          ws.off('message', on);
          resolve(m.result);
        }
      };
      ws.on('message', on);
      ws.send(JSON.stringify({ id, method, input }));
    });
  return { ws, call };
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);
afterAll(() => w.cleanup());

describe('nexus serve, from outside', () => {
  it("an agent's shell without the credential cannot approve its own card; the person's nexus command can", async () => {
    const s = await serve();
    const b = await browser(s.dir);
    const run = (await b.call('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] })) as { value: { id: string } };
    const row = (await b.call('runsAppend', { run_id: run.value.id, tool: 'bash', input: { command: 'echo mine' } })) as {
      value: { id: string; state: string };
    };
    expect(row.value.state).toBe('needs_approval');
    // The sandbox hides the data dir; here only the credential is masked, so the socket itself is reachable.
    const agent = await nexus(s.dir, ['approve', row.value.id], ['bwrap', '--dev-bind', '/', '/', '--ro-bind', '/dev/null', join(s.dir, CREDENTIAL_FILE)]);
    expect(agent.code).toBe(1);
    expect(agent.err).toMatch(/refused the credential|cannot be read/);
    expect((await nexus(s.dir, ['runs', 'show', run.value.id, '--json'])).out).toContain('"needs_approval"');
    const person = await nexus(s.dir, ['approve', row.value.id]);
    expect(person.code, person.err).toBe(0);
    const shown = await nexus(s.dir, ['runs', 'show', run.value.id]);
    expect(shown.out).toContain('approved by you with the nexus command');
    b.ws.close();
  }, 120_000);

  it('a `null` frame, and other junk, answer errors; the process and its runs go on', async () => {
    const s = await serve();
    const b = await browser(s.dir);
    for (const junk of ['null', '[]', '0', '"x"', '{"id":null,"method":null}', '{"id":1,"method":"status","input":[]}']) b.ws.send(junk);
    expect(await b.call('status', {})).toMatchObject({ ok: true });
    expect(s.child.exitCode).toBeNull();
    expect((await nexus(s.dir, ['status'])).code).toBe(0);
    b.ws.close();
  }, 120_000);

  it('an error thrown inside the process is logged and the kernel keeps serving', async () => {
    // A timer throws once NEXUS has installed its last resort. NODE_OPTIONS splits on spaces and drops double
    // quotes: hence the odd spelling of the script.
    const s = await serve({
      NODE_OPTIONS:
        '--import=data:text/javascript,setInterval(function(){if(process.listenerCount(`uncaughtException`)){clearInterval(this);throw(new(Error)(`thrown_from_a_timer`))}},50)',
    });
    for (let i = 0; i < 100 && !s.log().includes('thrown_from_a_timer'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(s.log()).toMatch(/nexus: internal error \(still serving\): Error: thrown_from_a_timer/);
    expect(s.child.exitCode).toBeNull();
    expect((await nexus(s.dir, ['status'])).code).toBe(0);
  }, 120_000);
});
