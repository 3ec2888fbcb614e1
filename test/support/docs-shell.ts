// Runs the shell lines a page shows, as a reader would type them: bash, in a fresh folder, with `nexus` on
// PATH (the built bin/nexus.cjs) and NEXUS_DATA_DIR set to a fresh data dir. A line ending in `&` starts a
// kernel in the background; the next line runs once its control socket is up. Not a test file itself.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './docs-markdown.js';

export interface Shell {
  dir: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Run one line with bash in `dir`; a trailing `&` starts it in the background (a kernel) and waits for its socket. */
  line(text: string): Promise<{ code: number; out: string; err: string }>;
  close(): Promise<void>;
}

export function shell(extraEnv: NodeJS.ProcessEnv = {}): Shell {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-doc-'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'nexus'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'nexus.cjs')}" "$@"\n`);
  chmodSync(join(bin, 'nexus'), 0o755);
  // Scripts a page shows resolve packages (jose) as they would in the NEXUS folder.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const dataDir = join(dir, '.nexus-data');
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, NEXUS_DATA_DIR: dataDir, ...extraEnv };
  const background: ChildProcess[] = [];
  return {
    dir,
    dataDir,
    env,
    async line(text) {
      if (text.trimEnd().endsWith('&')) {
        // Its own process group, so closing stops the kernel and the shell that started it.
        const child = spawn('bash', ['-c', text.trimEnd().slice(0, -1)], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        let log = '';
        child.stdout!.on('data', (c) => (log += c));
        child.stderr!.on('data', (c) => (log += c));
        background.push(child);
        for (let i = 0; i < 400 && !log.includes('control socket:') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
        if (!log.includes('control socket:')) throw new Error(`${text}: the kernel did not start: ${log}`);
        return { code: 0, out: log, err: '' };
      }
      return new Promise((resolve) => {
        execFile('bash', ['-c', text], { cwd: dir, env }, (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
        });
      });
    },
    async close() {
      for (const c of background) {
        if (c.exitCode !== null || c.signalCode !== null) continue;
        const exited = new Promise((r) => c.once('exit', r));
        process.kill(-c.pid!, 'SIGTERM');
        const t = setTimeout(() => process.kill(-c.pid!, 'SIGKILL'), 5_000);
        await exited;
        clearTimeout(t);
      }
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The command lines of a ```sh block: comments and blank lines dropped, trailing `# …` comments cut. */
export const commandLines = (block: string): string[] =>
  block
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
