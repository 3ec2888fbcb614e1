// What the two page runners share (docs-shell.ts runs a page's lines one by one, docs-replay.ts replays a whole
// page as one terminal): a reader's folder with `nexus` on PATH, a line started in the background that is ready
// once its kernel prints its control socket, and closing every background line with its process group.
// Not a test file itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './docs-markdown.js';
import { removeDir, tempDir } from './world.js';

/** A fresh reader's folder: `.bin/nexus` runs the built bin/nexus.cjs; node_modules resolves packages a page's scripts import (jose). */
export function readerFolder(label: string): { dir: string; bin: string } {
  const dir = tempDir(label);
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'nexus'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'nexus.cjs')}" "$@"\n`, { mode: 0o755 });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, bin };
}

export interface Background {
  /** Start `script` with bash in its own process group; resolves once a kernel's control socket is up, the line exits, or 20 s pass. */
  start(script: string, opts: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<{ ready: boolean; code: number; out: string }>;
  /** Stop every line still running (SIGTERM to its group, SIGKILL after 5 s), then remove `dir`. */
  close(dir: string): Promise<void>;
}

export function background(): Background {
  const children: ChildProcess[] = [];
  return {
    start(script, { cwd, env }) {
      const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      children.push(child);
      let log = '';
      child.stdout!.on('data', (c) => (log += c));
      child.stderr!.on('data', (c) => (log += c));
      return new Promise((resolve) => {
        const t0 = Date.now();
        const poll = () => {
          const ready = log.includes('control socket:');
          if (ready || child.exitCode !== null || Date.now() - t0 > 20_000) resolve({ ready, code: child.exitCode ?? 0, out: log });
          else setTimeout(poll, 50);
        };
        poll();
      });
    },
    async close(dir) {
      for (const c of children) {
        if (c.exitCode !== null || c.signalCode !== null) continue;
        const exited = new Promise((r) => c.once('exit', r));
        process.kill(-c.pid!, 'SIGTERM');
        const t = setTimeout(() => process.kill(-c.pid!, 'SIGKILL'), 5_000);
        await exited;
        clearTimeout(t);
      }
      removeDir(dir);
    },
  };
}
