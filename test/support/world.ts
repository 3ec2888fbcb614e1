// The one base every test world is built on: fresh temp data dirs, a manual clock, and one cleanup that removes
// every dir the world made (with the `<dir>-workspaces` folder the kernel makes beside a data dir) and runs
// every teardown it was given, last first. The builders (kernel.ts, turns.ts, nexus.ts, serve.ts, desk.ts)
// layer on it; test/support/README.md says which to reach for. Not a test file itself.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../electron/kernel/clock.js';

/** A fresh empty dir in the OS temp folder, named `nexus-<label>-XXXXXX` (the global teardown knows the prefix). */
export function tempDir(label = 'world'): string {
  return mkdtempSync(join(tmpdir(), `nexus-${label}-`));
}

/** Remove a data dir and the default workspaces folder the kernel makes beside it. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}-workspaces`, { recursive: true, force: true });
}

/** SIGTERM a child process still running and wait for it to exit (a teardown for `defer`). */
export async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await exited;
}

export interface World {
  clock: ManualClock;
  /** A fresh temp dir, removed at cleanup. */
  dir(label?: string): string;
  /** Remove `dir` at cleanup too (a dir the world did not make but now answers for); returns it. */
  own(dir: string): string;
  /** Run `f` at cleanup, before the dirs are removed (close what holds them open). Last deferred runs first. */
  defer(f: () => void | Promise<void>): void;
  /** Run every deferred teardown, then remove every dir; safe to call twice. */
  cleanup(): Promise<void>;
}

/** `clock`: the world's clock (default a ManualClock at its default start). */
export function world(opts: { clock?: ManualClock } = {}): World {
  const dirs: string[] = [];
  const teardowns: Array<() => void | Promise<void>> = [];
  return {
    clock: opts.clock ?? new ManualClock(),
    dir(label) {
      const d = tempDir(label);
      dirs.push(d);
      return d;
    },
    own(d) {
      dirs.push(d);
      return d;
    },
    defer(f) {
      teardowns.push(f);
    },
    async cleanup() {
      // Every teardown runs and every dir goes even if one teardown throws; the first error is reported after.
      let failed: unknown = null;
      for (const f of teardowns.splice(0).reverse()) {
        try {
          await f();
        } catch (e) {
          failed ??= e;
        }
      }
      for (const d of dirs.splice(0)) removeDir(d);
      if (failed) throw failed;
    },
  };
}
