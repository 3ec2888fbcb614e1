// Replaying a page as a reader would type it (docs/tutorial.md, docs/delegation.md): every `$ ` line of its
// console blocks runs in bash, in one "terminal" (cwd and exports carry over; HOME is a fresh folder); a file
// the page says to save ("Save this as `F`:" + its block) is saved; each command's output must be what the
// page shows once ids, times, ports, tokens and the home folder are set aside. Not a test file itself.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sections } from './docs-markdown.js';
import { background, readerFolder } from './docs-terminal.js';

export type Step = { kind: 'file'; name: string; body: string } | { kind: 'command'; line: string; expected: string };

/** A page's steps in order, from its `##` sections not in `skipped`. */
export function steps(page: string, skipped: string[] = []): Step[] {
  const out: Step[] = [];
  for (const s of sections(page, 2).filter((x) => !skipped.includes(x.title))) {
    const re = /(?:Save this as `([^`]+)`:\s*\n)?```(\w+)\n([\s\S]*?)^```\s*$/gm;
    for (let m; (m = re.exec(s.body));) {
      if (m[1]) out.push({ kind: 'file', name: m[1], body: m[3] });
      else if (m[2] === 'console') {
        for (const chunk of m[3].split(/^\$ /m).filter(Boolean)) {
          const [line, ...rest] = chunk.split('\n');
          out.push({ kind: 'command', line, expected: rest.join('\n').trimEnd() });
        }
      }
    }
  }
  return out;
}

/** The ids a page prints: a later command naming one gets the id this replay printed in its place. */
const ID = /\b(?:(?:run|row)_[0-9a-f]{28}|(?:chain|task)_[0-9a-f]{16}|[0-9a-f]{32})\b/g;
const idShape = (id: string) => (/^[0-9a-f]{32}$/.test(id) ? 'HOLD_ID' : `${id.split('_')[0]}_ID`);

export function normalize(text: string, home: string): string {
  return text
    .split(home)
    .join('/home/you')
    .replace(ID, idShape)
    .replace(/\d+h \d+m left/g, 'Nh Nm left')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\/[?#]token=[\w-]+/g, '/#token=TOKEN') // the launch token, in the query or the fragment
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();
}

/** Are `wanted` lines all in `lines`, in that order? */
const inOrder = (wanted: string[], lines: string[]): boolean => {
  let at = 0;
  for (const l of lines) if (at < wanted.length && l === wanted[at]) at++;
  return at === wanted.length;
};

export interface Replay {
  home: string;
  /** Run every step, comparing outputs; `file` may rewrite a saved file's text (a scripted model's URL). */
  run(all: Step[], opts?: { file?: (body: string) => string; retry?: RegExp }): Promise<void>;
  close(): Promise<void>;
}

export function replay(): Replay {
  const { dir: home, bin } = readerFolder('replay');
  mkdirSync(join(home, '.state'));
  writeFileSync(join(home, '.state', 'cwd'), home);
  writeFileSync(join(home, '.state', 'env'), '');
  const lines = background();
  const env = () => ({ ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}`, NEXUS_DATA_DIR: '' });
  // One line in "the same terminal": the last line's cwd and exports first, this line's saved after.
  const prelude = `cd "$(cat "$HOME/.state/cwd")"; . "$HOME/.state/env";`;

  const runLine = (line: string): Promise<{ code: number; out: string }> => {
    if (line.trimEnd().endsWith('&')) return lines.start(`${prelude} ${line.trimEnd().slice(0, -1)}`, { env: env() });
    const script = `${prelude} ${line}\nrc=$?; pwd > "$HOME/.state/cwd"; export -p > "$HOME/.state/env"; exit $rc`;
    return new Promise((resolve) => {
      execFile('bash', ['-c', script], { env: env() }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
      );
    });
  };

  return {
    home,
    async run(all, { file = (b: string) => b, retry = /^nexus (inbox|runs (show|list)|chains|tasks)/ } = {}) {
      const ids = new Map<string, string>(); // the page's id → this replay's
      for (const step of all) {
        if (step.kind === 'file') {
          writeFileSync(join(readFileSync(join(home, '.state', 'cwd'), 'utf8').trim(), step.name), file(step.body));
          continue;
        }
        const line = step.line.replace(ID, (id) => ids.get(id) ?? id);
        const want = normalize(step.expected, '/home/you');
        let got = '';
        let raw = '';
        // Reads may run ahead of the agents: ask again for a while before calling it a difference.
        for (const until = Date.now() + 20_000; ;) {
          const r = await runLine(line);
          raw = r.out;
          got = normalize(raw, home);
          if (got === want || Date.now() > until || !retry.test(line)) {
            expect(r.code, `${line}\n${raw}`).toBe(0);
            break;
          }
          await new Promise((res) => setTimeout(res, 200));
        }
        // A kernel started in the background prints a banner: the page's lines must be there, in order.
        if (line.trimEnd().endsWith('&')) expect(inOrder(want.split('\n'), got.split('\n')), `$ ${step.line}\n${got}`).toBe(true);
        else expect(got, `$ ${step.line}`).toBe(want);
        // The ids this command printed stand for the ones the page printed, in order, in later commands.
        const printed = raw.match(ID) ?? [];
        (step.expected.match(ID) ?? []).forEach((id, i) => {
          if (printed[i] && !ids.has(id)) ids.set(id, printed[i]);
        });
      }
    },
    close: () => lines.close(home),
  };
}
