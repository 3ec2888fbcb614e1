// The control socket authenticates the person, not the user id: a process of the same user that does not
// hold this launch's credential (an agent's shell, sandboxed away from the data dir) cannot approve its own
// card, lift Stop all or change settings. The credential is a 0600 file in the data dir, new per launch.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { startSocketDoor, type SocketDoor } from './socket.js';
import { CREDENTIAL_FILE, credentialPath, sameSecret } from './credential.js';
import { callKernel, NotAuthenticatedError } from '../cli/client.js';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import { join } from 'node:path';
import { dispatch } from '../api/dispatch.js';

let h: Harness | null = null;
let door: SocketDoor | null = null;
afterEach(async () => {
  await door?.close();
  await h?.cleanup();
  door = null;
  h = null;
});

/** Write raw bytes to the socket and collect every answer line until the kernel closes or `ms` pass. */
function raw(path: string, bytes: string, ms = 1500): Promise<{ lines: Record<string, unknown>[]; closed: boolean }> {
  return new Promise((resolve) => {
    const c = createConnection(path);
    let buf = '';
    const lines: Record<string, unknown>[] = [];
    const done = (closed: boolean) => {
      clearTimeout(t);
      c.destroy();
      for (const l of buf.split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      resolve({ lines, closed });
    };
    const t = setTimeout(() => done(false), ms);
    c.setEncoding('utf8');
    c.on('data', (d) => (buf += d));
    c.on('close', () => done(true));
    c.on('error', () => {});
    c.on('connect', () => c.write(bytes));
  });
}

async function parkedRow(hh: Harness) {
  probe(hh.nexus);
  const run = hh.nexus.kernel.createRun({ agent: null, mode: 'ask' });
  return hh.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
}

describe('control socket credential', () => {
  it('is written 0600 in the data dir before the socket listens, new at every start, removed at close', async () => {
    h = await harness();
    door = await startSocketDoor(h.nexus);
    const file = credentialPath(h.dir);
    expect(file).toBe(join(h.dir, CREDENTIAL_FILE));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = readFileSync(file, 'utf8').trim();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await door.close();
    expect(existsSync(file)).toBe(false);
    door = await startSocketDoor(h.nexus);
    expect(readFileSync(file, 'utf8').trim()).not.toBe(first);
  });

  it('a connection that does not authenticate first cannot approve its own card: refused, closed, the row stays parked', async () => {
    h = await harness();
    const row = await parkedRow(h);
    door = await startSocketDoor(h.nexus);
    const r = await raw(door.path, `${JSON.stringify({ id: 1, method: 'inboxApprove', input: { id: row.id } })}\n`);
    expect(r.closed).toBe(true);
    expect(r.lines).toEqual([{ id: 1, ok: false, error: { code: 'unauthenticated', message: expect.stringContaining(CREDENTIAL_FILE) } }]);
    expect(h.nexus.kernel.getRow(row.id)!.state).toBe('needs_approval');
  });

  it('a wrong or guessed token is refused the same way, and nothing pipelined behind it runs', async () => {
    h = await harness();
    const row = await parkedRow(h);
    door = await startSocketDoor(h.nexus);
    const real = readFileSync(credentialPath(h.dir), 'utf8').trim();
    for (const token of ['', 'x', real.slice(0, -1), `${real}x`, real.toUpperCase(), 42, null]) {
      const lines = `${JSON.stringify({ id: 1, method: 'auth', input: { token } })}\n${JSON.stringify({ id: 2, method: 'inboxApprove', input: { id: row.id } })}\n${JSON.stringify({ id: 3, method: 'runsCreate', input: { mode: 'bypass' } })}\n`;
      const r = await raw(door.path, lines);
      expect(r.closed).toBe(true);
      expect(r.lines).toEqual([expect.objectContaining({ id: 1, ok: false, error: expect.objectContaining({ code: 'unauthenticated' }) })]);
    }
    expect(h.nexus.kernel.getRow(row.id)!.state).toBe('needs_approval');
    expect(await dispatch(h.nexus.handlers, 'runsList', {}, { door: 'internal' })).toMatchObject({ ok: true, value: [{ id: row.run_id }] });
  });

  it('the right token, then requests on the same connection (pipelined in one write) are served', async () => {
    h = await harness();
    door = await startSocketDoor(h.nexus);
    const token = readFileSync(credentialPath(h.dir), 'utf8').trim();
    const r = await raw(door.path, `${JSON.stringify({ id: 'a', method: 'auth', input: { token } })}\n${JSON.stringify({ id: 2, method: 'status' })}\n`, 500);
    expect(r.lines[0]).toEqual({ id: 'a', ok: true, value: { authenticated: true } });
    expect(r.lines[1]).toMatchObject({ id: 2, ok: true, value: { data_dir: h.dir } });
  });

  it('before authentication a line may be at most 4 KiB', async () => {
    h = await harness();
    door = await startSocketDoor(h.nexus);
    const r = await raw(door.path, 'x'.repeat(10_000));
    expect(r.closed).toBe(true);
    expect(r.lines[0]).toMatchObject({ ok: false, error: { code: 'too_large' } });
  });

  it('the nexus command finds the credential by itself; without a readable one it says so clearly', async () => {
    h = await harness();
    door = await startSocketDoor(h.nexus);
    expect(await callKernel(h.dir, 'status', {})).toMatchObject({ ok: true });
    const file = credentialPath(h.dir);
    const saved = readFileSync(file, 'utf8');
    unlinkSync(file);
    const missing = await callKernel(h.dir, 'status', {}).catch((e) => e);
    expect(missing).toBeInstanceOf(NotAuthenticatedError);
    expect(missing.message).toMatch(/is running, but its credential .* cannot be read \(it is missing\)/);
    writeFileSync(file, 'not-the-token\n');
    chmodSync(file, 0o600);
    const wrong = await callKernel(h.dir, 'status', {}).catch((e) => e);
    expect(wrong).toBeInstanceOf(NotAuthenticatedError);
    expect(wrong.message).toMatch(/refused the credential/);
    writeFileSync(file, saved);
    expect(await callKernel(h.dir, 'status', {})).toMatchObject({ ok: true });
  });

  it('compares secrets whatever their type or length', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abd', 'abc')).toBe(false);
    expect(sameSecret('abcd', 'abc')).toBe(false);
    expect(sameSecret(undefined, 'abc')).toBe(false);
    expect(sameSecret({ toString: () => 'abc' }, 'abc')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});
