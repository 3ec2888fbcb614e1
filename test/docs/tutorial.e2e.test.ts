// docs/tutorial.md replayed as written: every `$ ` line of its console blocks runs in bash (cwd and exports
// carry over, as in one terminal; HOME is a fresh folder), files the page says to save are saved, and each
// command's output must be what the page shows — once ids, times, ports, tokens and the home folder are
// set aside. The model is test/support/tutorial-model.ts in place of Ollama (same replies every time).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/serve.js';
import { startTutorialModel } from '../support/tutorial-model.js';
import type { ScriptedModel } from '../support/scripted-model.js';
import { ROOT, readDoc, sections } from '../support/docs-markdown.js';

const page = readDoc('tutorial.md');
const SKIPPED = ['1. Install', '3. Connect a local model']; // replaced by the build and the scripted model

type Step = { kind: 'file'; name: string; body: string } | { kind: 'command'; line: string; expected: string };

/** The page's steps in order: "Save this as `F`:" + its block, and each `$ ` line of a console block with its output. */
function steps(): Step[] {
  const out: Step[] = [];
  for (const s of sections(page, 2).filter((x) => !SKIPPED.includes(x.title))) {
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

const ID = /\b(run|row)_[0-9a-f]{28}\b/g;
function normalize(text: string, home: string): string {
  return (
    text
      .split(home)
      .join('/home/you')
      .replace(ID, '$1_ID')
      .replace(/\d+h \d+m left/g, 'Nh Nm left')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
      // The launch token rides in the query or, single-use, in the fragment: either is the page's URL.
      .replace(/\/[?#]token=[\w-]+/g, '/#token=TOKEN')
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')
      .trimEnd()
  );
}

/** Are `wanted` lines all in `lines`, in that order? */
function inOrder(wanted: string[], lines: string[]): boolean {
  let at = 0;
  for (const l of lines) if (at < wanted.length && l === wanted[at]) at++;
  return at === wanted.length;
}

let home: string;
let model: ScriptedModel;
const background: ChildProcess[] = [];

beforeAll(async () => {
  build();
  home = mkdtempSync(join(tmpdir(), 'nexus-tutorial-'));
  mkdirSync(join(home, '.state'));
  writeFileSync(join(home, '.state', 'cwd'), home);
  writeFileSync(join(home, '.state', 'env'), '');
  mkdirSync(join(home, '.bin'));
  writeFileSync(join(home, '.bin', 'nexus'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'nexus.cjs')}" "$@"\n`, { mode: 0o755 });
  model = await startTutorialModel();
}, 60_000);

afterAll(async () => {
  for (const c of background) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    process.kill(-c.pid!, 'SIGTERM');
    const t = setTimeout(() => process.kill(-c.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(t);
  }
  await model?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const env = () => ({ ...process.env, HOME: home, PATH: `${join(home, '.bin')}:${process.env.PATH}`, NEXUS_DATA_DIR: '' });
/** One line in "the same terminal": the last line's cwd and exports first, this line's saved after. */
const prelude = `cd "$(cat "$HOME/.state/cwd")"; . "$HOME/.state/env";`;

function runLine(line: string): Promise<{ code: number; out: string }> {
  if (line.trimEnd().endsWith('&')) {
    const child = spawn('bash', ['-c', `${prelude} ${line.trimEnd().slice(0, -1)}`], { env: env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    background.push(child);
    let log = '';
    child.stdout!.on('data', (c) => (log += c));
    child.stderr!.on('data', (c) => (log += c));
    return new Promise((resolve) => {
      const t0 = Date.now();
      const poll = () =>
        log.includes('control socket:') || child.exitCode !== null || Date.now() - t0 > 20_000
          ? resolve({ code: child.exitCode ?? 0, out: log })
          : setTimeout(poll, 50);
      poll();
    });
  }
  const script = `${prelude} ${line}\nrc=$?; pwd > "$HOME/.state/cwd"; export -p > "$HOME/.state/env"; exit $rc`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { env: env() }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe('docs/tutorial.md, replayed', () => {
  it('every command prints what the page shows', async () => {
    const ids = new Map<string, string>(); // the page's id → this replay's
    const all = steps();
    expect(all.filter((s) => s.kind === 'command').length).toBeGreaterThan(10);
    for (const step of all) {
      if (step.kind === 'file') {
        const cwd = readFileSync(join(home, '.state', 'cwd'), 'utf8').trim();
        writeFileSync(join(cwd, step.name), step.body.replaceAll('http://127.0.0.1:11434/v1', model.baseURL));
        continue;
      }
      const line = step.line.replace(ID, (id) => ids.get(id) ?? id);
      const want = normalize(step.expected, '/home/you');
      let got = '';
      let raw = '';
      // Reads may run ahead of the model: ask again for a while before calling it a difference.
      for (const until = Date.now() + 20_000; ;) {
        const r = await runLine(line);
        raw = r.out;
        got = normalize(raw, home);
        if (got === want || Date.now() > until || !/^nexus (inbox|runs (show|list))/.test(line)) {
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
  }, 180_000);
});
