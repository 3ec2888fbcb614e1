// One kernel per data dir: `nexus.lock` holds the owner's pid and, where the OS tells it (Linux /proc), the
// process's start time. A lock is stale — and taken over — when its pid is dead, or alive but a DIFFERENT
// process (its start time differs: the pid was reused, e.g. after a reboot or a crash). A lock written
// without a start time is judged by the live process's command line (a NEXUS kernel runs `nexus` or the
// Electron app). Where neither can be read (no /proc), a live pid is trusted to be the owner: refuse clearly.
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

/** Start time of a process in clock ticks since boot (/proc/<pid>/stat field 22), or null off Linux. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or ')': split after the LAST ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

/** Is the process that holds the lock still a NEXUS kernel? */
export function holderIsKernel(content: string): { pid: number; kernel: boolean } {
  const [first, second] = content.split('\n');
  const pid = Number(first.trim());
  if (!alive(pid)) return { pid, kernel: false };
  const recorded = /^start (\d+)$/.exec((second ?? '').trim())?.[1];
  const now = processStart(pid);
  if (recorded && now !== null) return { pid, kernel: recorded === now };
  const cmd = commandLine(pid);
  if (cmd !== null) return { pid, kernel: /nexus|electron/i.test(cmd) };
  return { pid, kernel: true }; // cannot tell: never risk two kernels on one data dir
}

/** Take the data dir's lock; returns its release function. Throws `already_running` when a live kernel holds it. */
export function acquireLock(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const start = processStart(process.pid);
  const mine = `${process.pid}${start ? `\nstart ${start}` : ''}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(path, 'utf8') === mine) unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let content: string;
      try {
        content = readFileSync(path, 'utf8');
      } catch {
        continue;
      }
      const { pid, kernel } = holderIsKernel(content);
      if (kernel) {
        throw new KernelError(
          'already_running',
          `Another NEXUS kernel (pid ${pid}) is already running on the data dir ${dataDir}. Stop it first, or use another --data-dir (if no NEXUS is running, remove ${path}).`,
        );
      }
      try {
        unlinkSync(path); // stale: its owner is gone, or the pid now belongs to another process
      } catch {
        /* someone else cleaned it */
      }
    }
  }
  throw new KernelError('already_running', `Could not take the lock of the data dir ${dataDir}.`);
}
