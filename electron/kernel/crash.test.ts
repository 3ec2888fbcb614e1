// Crash safety (DESIGN §7), tested by killing a REAL process: a child kernel with a row running and a row
// parked is SIGKILLed; a new kernel on the same data dir finds the running row interrupted (never re-run),
// the parked row still parked with its deadline, and what expired while closed expires at start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness } from '../../test/support/kernel.js';
import { stopChild, world, type World } from '../../test/support/world.js';
import { ManualClock } from './clock.js';
import { APPROVAL_EXPIRED_TEXT, PARK_DURATION_MS } from '../../shared/types.js';
import { startSocketDoor } from '../doors/socket.js';
import { callKernel } from '../cli/client.js';

const ROOT = join(import.meta.dirname, '..', '..');
let w: World;
let dir: string;
let child: ChildProcess | null = null;

beforeEach(() => {
  w = world();
  dir = w.dir('crash');
});
afterEach(() => w.cleanup());

/** The killed kernel's bash was in its own process group: make sure nothing is left behind. */
const leaveNoSleeper = (sleeper: number) =>
  w.defer(() => {
    try {
      process.kill(-sleeper, 'SIGKILL');
    } catch {
      /* gone */
    }
  });

function startChild(): Promise<{ run: string; running: string; runningState: string; parked: string; expires_at: string; sleeper: number }> {
  const c = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/crash-child.ts'), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child = c;
  w.defer(() => stopChild(c));
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child!.stdout!.on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child!.stderr!.on('data', (c) => (err += c));
    child!.on('exit', (code) => reject(new Error(`child exited early (${code}): ${err}`)));
  });
}

const killed = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

describe('crash recovery by SIGKILL of a real kernel process', () => {
  it('running rows are marked interrupted and never re-run; parked rows stay parked with their deadline; expired-while-closed expire at start', async () => {
    const info = await startChild();
    leaveNoSleeper(info.sleeper);
    expect(info.runningState).toBe('running');
    child!.kill('SIGKILL');
    await killed(child!);
    expect(existsSync(join(dir, 'nexus.sock'))).toBe(true); // left behind by the dead kernel
    expect(existsSync(join(dir, 'nexus.lock'))).toBe(true);

    // Reopen "a minute later": the stale lock and socket are taken over.
    const clock = new ManualClock(Date.now() + 60_000);
    const h = await harness({ dir, clock });
    try {
      const door = await startSocketDoor(h.nexus);
      const status = await callKernel(dir, 'status', {});
      expect(status.ok).toBe(true);
      await door.close();

      const k = h.nexus.kernel;
      expect(h.nexus.recovery.interrupted).toEqual([info.running]);
      expect(k.getRow(info.running)).toMatchObject({ state: 'failed', error: { code: 'interrupted' } });
      const parked = k.getRow(info.parked)!;
      expect(parked.state).toBe('needs_approval');
      expect(parked.expires_at).toBe(info.expires_at);
      expect(k.inbox.pending().map((i) => i.id)).toEqual([info.parked]);
      // Never re-run: the interrupted row stays failed; its command was not started again.
      await new Promise((r) => setTimeout(r, 100));
      expect(k.getRow(info.running)!.state).toBe('failed');
      // The run's rules are recompiled from the stored JSON: echo still allowed, anything else parks.
      const again = k.submitRow(info.run, { tool: 'bash', input: { command: 'echo recompiled' }, origin: 'model' });
      expect(again.granted_by).toBe('rule');
      expect((await k.waitRow(again.id)).result!.content[0].text).toBe('recompiled');
      expect(k.submitRow(info.run, { tool: 'bash', input: { command: 'rm -rf x' }, origin: 'model' }).state).toBe('needs_approval');
      // The deadline timer was re-armed: moving past it expires the row.
      clock.advance(Date.parse(info.expires_at) - clock.now());
      expect(k.getRow(info.parked)).toMatchObject({ state: 'timed_out', error: { code: 'approval_expired', detail: APPROVAL_EXPIRED_TEXT } });
    } finally {
      await h.nexus.close();
    }
  });

  it('a park whose deadline passed while the app was closed expires at start, with the exact text', async () => {
    const info = await startChild();
    leaveNoSleeper(info.sleeper);
    child!.kill('SIGKILL');
    await killed(child!);
    const h = await harness({ dir, clock: new ManualClock(Date.now() + PARK_DURATION_MS + 60_000) });
    try {
      expect(h.nexus.recovery.expired).toEqual([info.parked]);
      const row = h.nexus.kernel.getRow(info.parked)!;
      expect(row.state).toBe('timed_out');
      expect(row.result!.content).toEqual([{ type: 'text', text: 'Nobody approved this tool call before it expired.' }]);
      expect(h.nexus.kernel.inbox.pending()).toEqual([]);
      expect(readFileSync(join(dir, 'nexus.lock'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    } finally {
      await h.nexus.close();
    }
  });
});
