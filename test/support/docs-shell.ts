// Runs the shell lines a page shows, as a reader would type them: bash, in a fresh folder, with `nexus` on
// PATH (the built bin/nexus.cjs) and NEXUS_DATA_DIR set to a fresh data dir. A line ending in `&` starts a
// kernel in the background; the next line runs once its control socket is up. Not a test file itself.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { background, readerFolder } from './docs-terminal.js';

export interface Shell {
  dir: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Run one line with bash in `dir`; a trailing `&` starts it in the background (a kernel) and waits for its socket. */
  line(text: string): Promise<{ code: number; out: string; err: string }>;
  close(): Promise<void>;
}

export function shell(extraEnv: NodeJS.ProcessEnv = {}): Shell {
  const { dir, bin } = readerFolder('doc');
  const dataDir = join(dir, '.nexus-data');
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, NEXUS_DATA_DIR: dataDir, ...extraEnv };
  const lines = background();
  return {
    dir,
    dataDir,
    env,
    async line(text) {
      if (text.trimEnd().endsWith('&')) {
        // Its own process group, so closing stops the kernel and the shell that started it.
        const r = await lines.start(text.trimEnd().slice(0, -1), { cwd: dir, env });
        if (!r.ready) throw new Error(`${text}: the kernel did not start: ${r.out}`);
        return { code: 0, out: r.out, err: '' };
      }
      return new Promise((resolve) => {
        execFile('bash', ['-c', text], { cwd: dir, env }, (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
        });
      });
    },
    close: () => lines.close(dir),
  };
}

/** The command lines of a ```sh block: comments and blank lines dropped, trailing `# …` comments cut. */
export const commandLines = (block: string): string[] =>
  block
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
