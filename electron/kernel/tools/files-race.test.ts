// The file tools against a real racing process: a child node loop flips a workspace entry between a regular
// file (or a folder) and a symlink to a secret outside the workspace, as an agent's bash would, while the tool
// is called hundreds of times. Never once may the secret's bytes come back, an outside folder be listed, or a
// folder or a byte land outside. Each test also asserts that both states were seen, so it cannot pass idle.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareWorkspace } from './workspace.js';
import { editTool, listTool, readTool, writeTool } from './files.js';
import type { ExecutorTool, ToolContext } from '../types.js';
import { stopChild, world, type World } from '../../../test/support/world.js';

const SECRET = `nexus-sock-token-${process.pid}-RACE-SECRET`;
const MIN_CALLS = 300;
// On a busy machine the two processes rarely run at the same instant: a count alone may never hit the window.
const MIN_MS = 2000;

let w: World;
let root: string;
let ws: string;
let outside: string;
beforeEach(() => {
  w = world();
  root = w.dir('race');
  ws = prepareWorkspace(join(root, 'ws'));
  outside = join(root, 'data');
  mkdirSync(outside);
  writeFileSync(join(outside, 'nexus.sock.token'), SECRET);
  writeFileSync(join(outside, 'f'), SECRET);
  mkdirSync(join(outside, 'outside-only-folder'));
});
afterEach(() => w.cleanup());

// Each flip is a rename, so the name is always there (a file or a link) except where a folder must be rebuilt.
const FLIPPERS = {
  // `f`: a regular file "public" <-> a symlink to the token.
  file: `for (;;) { try { fs.symlinkSync(secret, '.l'); } catch {} try { fs.renameSync('.l', 'f'); } catch {}
    try { fs.writeFileSync('.r', 'public'); fs.renameSync('.r', 'f'); } catch {} tick(); }`,
  // `d`: a folder holding f="public" <-> a symlink to the data folder.
  dir: `fs.mkdirSync('.d'); fs.writeFileSync('.d/f', 'public'); fs.symlinkSync(outside, '.l');
    for (;;) { try { fs.renameSync('.d', 'd'); } catch {} try { fs.renameSync('d', '.d'); } catch {}
      try { fs.renameSync('.l', 'd'); } catch {} try { fs.renameSync('d', '.l'); } catch {} tick(); }`,
  // `d`: an empty folder (made afresh, whatever was written into it discarded) <-> a symlink to the data folder.
  freshDir: `fs.symlinkSync(outside, '.l');
    for (let k = 0; ; k++) { try { fs.mkdirSync('.n'); fs.renameSync('.n', 'd'); } catch {} try { fs.renameSync('d', '.gone' + k); } catch {}
      try { fs.renameSync('.l', 'd'); } catch {} try { fs.renameSync('d', '.l'); } catch {}
      try { fs.rmSync('.gone' + k, { recursive: true, force: true }); } catch {} tick(); }`,
};

/** Start a flipper in the workspace; resolves once it has flipped a few hundred times. */
async function flip(kind: keyof typeof FLIPPERS): Promise<void> {
  const script = `const fs = require('fs'); process.chdir(${JSON.stringify(ws)});
    const secret = ${JSON.stringify(join(outside, 'nexus.sock.token'))}, outside = ${JSON.stringify(outside)};
    let n = 0; const tick = () => { if (++n === 300) process.stdout.write('ready\\n'); };
    ${FLIPPERS[kind]}`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  w.defer(() => stopChild(child));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the flipper exited (${code})`)));
  });
}

const ctx = (): ToolContext => ({ workspace: ws, signal: new AbortController().signal, run: {} as never, row: {} as never });
const text = (r: { content: { text: string }[] }) => r.content.map((c) => c.text).join('\n');

/** Call the tool at least MIN_CALLS times for at least `ms`, and until it both succeeded and was refused. */
async function hammer(t: ExecutorTool, input: (i: number) => unknown, ms = MIN_MS): Promise<{ ok: string[]; refused: string[] }> {
  const ok: string[] = [];
  const refused: string[] = [];
  const start = Date.now();
  const more = (i: number) => i < MIN_CALLS || Date.now() < start + ms || ((ok.length === 0 || refused.length === 0) && Date.now() < start + 20_000);
  for (let i = 0; more(i); i++) {
    const r = await t.run(input(i), ctx());
    (r.isError ? refused : ok).push(text(r));
  }
  return { ok, refused };
}

/** Every name under `dir`, recursively (links not followed). */
const tree = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => [d.name, ...(d.isDirectory() ? tree(join(dir, d.name)).map((n) => `${d.name}/${n}`) : [])]);

describe('a workspace file flipping to a symlink to the token', () => {
  it(`read never returns the token (${MIN_CALLS}+ reads)`, async () => {
    await flip('file');
    const { ok, refused } = await hammer(readTool, () => ({ path: 'f' }));
    for (const t of [...ok, ...refused]) expect(t).not.toContain(SECRET);
    expect(ok.every((t) => t === 'public')).toBe(true);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
  }, 60_000);

  it('write and edit never change the token', async () => {
    await flip('file');
    const w = await hammer(writeTool, () => ({ path: 'f', content: 'pwned' }));
    const e = await hammer(editTool, () => ({ path: 'f', old_string: 'public', new_string: 'pwned' }));
    expect(w.ok.length + e.ok.length).toBeGreaterThan(0);
    expect(readFileSync(join(outside, 'nexus.sock.token'), 'utf8')).toBe(SECRET);
  }, 60_000);
});

describe('a workspace folder flipping to a symlink to the data folder', () => {
  it('read of a file under it never returns the token', async () => {
    await flip('dir');
    const { ok, refused } = await hammer(readTool, () => ({ path: 'd/f' }));
    for (const t of [...ok, ...refused]) expect(t).not.toContain(SECRET);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
  }, 60_000);

  it('list never lists the data folder', async () => {
    await flip('dir');
    const { ok, refused } = await hammer(listTool, () => ({ path: 'd' }));
    for (const t of [...ok, ...refused]) expect(t).not.toMatch(/outside-only-folder|nexus\.sock\.token/);
    expect(ok.every((t) => t === 'f')).toBe(true);
    expect(ok.length).toBeGreaterThan(0);
  }, 60_000);

  it('write never creates a folder or a file outside, and never changes one there', async () => {
    await flip('freshDir');
    const before = tree(outside).sort();
    const { ok, refused } = await hammer(writeTool, (i) => ({ path: i % 3 ? `d/new-${i}/deeper/x.txt` : 'd/f', content: 'pwned' }), 3000);
    expect(tree(outside).sort()).toEqual(before);
    expect(readFileSync(join(outside, 'f'), 'utf8')).toBe(SECRET);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
  }, 60_000);
});
