// The data dir's single-kernel lock: a live kernel refuses a second one; a lock naming a dead pid, or a live
// process that is not the one that wrote it (pid reused), or a live process that is not NEXUS, is taken over.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, LOCK_FILE, processStart } from './lock.js';
import { stopChild, world, type World } from '../../test/support/world.js';

let w: World;
let dir: string;
beforeEach(() => {
  w = world();
  dir = w.dir('lock');
});
afterEach(() => w.cleanup());
const live = (args: string[]) => {
  const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', ...args], { stdio: 'ignore' });
  w.defer(() => stopChild(c));
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
