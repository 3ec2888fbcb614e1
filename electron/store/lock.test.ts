// The data dir's single-kernel lock: a live kernel refuses a second one; a lock naming a dead pid, or a live
// process that is not the one that wrote it (pid reused), or a live process that is not NEXUS, is taken over.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, LOCK_FILE, processStart } from './lock.js';

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nexus-lock-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    }
  }
  rmSync(dir, { recursive: true, force: true });
});
const live = (args: string[]) => {
  const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', ...args], { stdio: 'ignore' });
  children.push(c);
  return c.pid!;
};
const lock = (content: string) => writeFileSync(join(dir, LOCK_FILE), content);
const linux = process.platform === 'linux';

describe('the data dir lock', () => {
  it('a live kernel holding it refuses a second; released, it can be taken again', () => {
    const release = acquireLock(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`));
    expect(() => acquireLock(dir)).toThrow(/already running/);
    release();
    acquireLock(dir)();
  });

  it('a dead pid is stale', () => {
    lock('999999999\n');
    acquireLock(dir)();
  });

  it.runIf(linux)('a live pid whose start time is not the recorded one (a reused pid) is taken over', () => {
    const pid = live([]);
    lock(`${pid}\nstart ${Number(processStart(pid)) + 12345}\n`);
    acquireLock(dir)();
  });

  it.runIf(linux)('a live pid with the recorded start time is a kernel: refused', () => {
    const pid = live([]);
    lock(`${pid}\nstart ${processStart(pid)}\n`);
    expect(() => acquireLock(dir)).toThrow(new RegExp(`pid ${pid}`));
  });

  it.runIf(linux)('a pid-only lock naming a live process that is not NEXUS is taken over; one that is NEXUS refuses', () => {
    lock(`${live(['unrelated-editor'])}\n`);
    acquireLock(dir)();
    const kernel = live(['/opt/app/bin/nexus.cjs', 'serve']);
    lock(`${kernel}\n`);
    expect(() => acquireLock(dir)).toThrow(/already running/);
  });
});
