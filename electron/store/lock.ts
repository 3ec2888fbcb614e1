// One kernel per data dir: `nexus.lock` holds the owner's pid. A lock whose pid is dead (a crashed or killed
// kernel) is stale and taken over; a live one refuses clearly.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { KernelError } from '../../shared/errors.js';

export const LOCK_FILE = 'nexus.lock';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the data dir's lock; returns its release function. Throws `already_running` when a live kernel holds it. */
export function acquireLock(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let pid = NaN;
      try {
        pid = Number(readFileSync(path, 'utf8').trim());
      } catch {
        continue;
      }
      if (alive(pid)) {
        throw new KernelError('already_running', `Another NEXUS kernel (pid ${pid}) is already running on the data dir ${dataDir}. Stop it first, or use another --data-dir.`);
      }
      try {
        unlinkSync(path); // stale: its owner is gone
      } catch {
        /* someone else cleaned it */
      }
    }
  }
  throw new KernelError('already_running', `Could not take the lock of the data dir ${dataDir}.`);
}
