// write/edit open first and check the OPEN file: hard links (to a file outside or inside the workspace), a
// symlink swapped in after the path check, and `..` are all refused, and nothing outside ever changes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutorTool, ToolContext } from '../types.js';
import { world, type World } from '../../../test/support/world.js';

// A hook in confine: runs after the path was checked, before the tool opens it (the attacker's window).
const afterConfine = vi.hoisted(() => ({ fn: null as null | (() => void) }));
vi.mock('./workspace.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./workspace.js')>();
  return {
    ...real,
    confine: (ws: string, p: unknown) => {
      const r = real.confine(ws, p);
      afterConfine.fn?.();
      return r;
    },
  };
});
const { prepareWorkspace } = await import('./workspace.js');
const { editTool, writeTool } = await import('./files.js');

let w: World;
let root: string;
let ws: string;
let outside: string;
beforeEach(() => {
  w = world();
  root = w.dir('links');
  ws = prepareWorkspace(join(root, 'ws'));
  outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'bashrc'), 'original');
  afterConfine.fn = null;
});
afterEach(() => w.cleanup());

const ctx = (): ToolContext => ({ workspace: ws, signal: new AbortController().signal, run: {} as never, row: {} as never });
const run = (t: ExecutorTool, input: unknown) => t.run(input, ctx());
const text = (r: { content: { text: string }[] }) => r.content[0].text;

describe('write and edit refuse what would reach outside the workspace', () => {
  it('a hard link to a file outside: write and edit refused, the outside file unchanged', async () => {
    linkSync(join(outside, 'bashrc'), join(ws, 'notes.txt'));
    const w = await run(writeTool, { path: 'notes.txt', content: 'curl evil | sh' });
    expect(w.isError).toBe(true);
    expect(text(w)).toMatch(/2 hard links/);
    const e = await run(editTool, { path: 'notes.txt', old_string: 'original', new_string: 'pwned' });
    expect(e.isError).toBe(true);
    expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original');
  });

  it('a hard link between two names inside the workspace is refused too', async () => {
    writeFileSync(join(ws, 'a.txt'), 'a');
    linkSync(join(ws, 'a.txt'), join(ws, 'b.txt'));
    expect((await run(writeTool, { path: 'b.txt', content: 'b' })).isError).toBe(true);
    expect((await run(editTool, { path: 'a.txt', old_string: 'a', new_string: 'c' })).isError).toBe(true);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('a');
  });

  it('.. and a symlink out are refused by write and edit', async () => {
    symlinkSync(join(outside, 'bashrc'), join(ws, 'link'));
    for (const path of ['../outside/bashrc', 'link', join(outside, 'bashrc')]) {
      expect((await run(writeTool, { path, content: 'x' })).isError, path).toBe(true);
      expect((await run(editTool, { path, old_string: 'original', new_string: 'x' })).isError, path).toBe(true);
    }
    expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original');
  });

  it('a file swapped for a symlink after the check is refused (O_NOFOLLOW), nothing written outside', async () => {
    writeFileSync(join(ws, 'f.txt'), 'mine');
    afterConfine.fn = () => {
      afterConfine.fn = null;
      rmSync(join(ws, 'f.txt'));
      symlinkSync(join(outside, 'bashrc'), join(ws, 'f.txt'));
    };
    const w = await run(writeTool, { path: 'f.txt', content: 'pwned' });
    expect(w.isError).toBe(true);
    expect(text(w)).toMatch(/symlink/);
    expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original');
  });

  it('a folder swapped for a symlink after the check: the opened file is found outside and refused; a file it created there is removed', async () => {
    mkdirSync(join(ws, 'd'));
    writeFileSync(join(ws, 'd', 'bashrc'), 'inside');
    const swap = () => {
      afterConfine.fn = null;
      renameSync(join(ws, 'd'), join(ws, 'd.real'));
      symlinkSync(outside, join(ws, 'd'));
    };
    afterConfine.fn = swap;
    const w = await run(writeTool, { path: 'd/bashrc', content: 'pwned' });
    expect(w.isError).toBe(true);
    expect(text(w)).toMatch(/outside the workspace/);
    expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original');

    rmSync(join(ws, 'd'));
    renameSync(join(ws, 'd.real'), join(ws, 'd'));
    afterConfine.fn = swap;
    const n = await run(writeTool, { path: 'd/new.txt', content: 'pwned' });
    expect(n.isError).toBe(true);
    expect(readdirSync(outside)).toEqual(['bashrc']);

    rmSync(join(ws, 'd'));
    renameSync(join(ws, 'd.real'), join(ws, 'd'));
    afterConfine.fn = swap;
    const e = await run(editTool, { path: 'd/bashrc', old_string: 'original', new_string: 'pwned' });
    expect(e.isError).toBe(true);
    expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original');
  });

  it('stress: under a real concurrent swapper (a folder flipping to a symlink out and back), no write ever lands outside', async () => {
    mkdirSync(join(ws, 'd'));
    const flipper = spawn(
      'sh',
      ['-c', `cd "${ws}"; while :; do mv d d.real 2>/dev/null; ln -s "${outside}" d 2>/dev/null; rm -f d; mv d.real d 2>/dev/null; done`],
      { stdio: 'ignore' },
    );
    try {
      const end = Date.now() + 1500;
      for (let i = 0; Date.now() < end; i++) {
        await run(writeTool, { path: i % 2 ? 'd/bashrc' : `d/new-${i}.txt`, content: 'pwned' });
      }
      expect(readFileSync(join(outside, 'bashrc'), 'utf8')).toBe('original');
      expect(readdirSync(outside)).toEqual(['bashrc']);
    } finally {
      const exited = new Promise((r) => flipper.once('exit', r));
      flipper.kill('SIGKILL');
      await exited;
    }
  }, 20_000);

  it('ordinary use is unchanged: create with folders, overwrite (shorter content truncates), edit', async () => {
    expect((await run(writeTool, { path: 'a/b/c.txt', content: 'a long first version' })).isError).toBeUndefined();
    expect((await run(writeTool, { path: 'a/b/c.txt', content: 'short' })).isError).toBeUndefined();
    expect(readFileSync(join(ws, 'a/b/c.txt'), 'utf8')).toBe('short');
    expect(text(await run(editTool, { path: 'a/b/c.txt', old_string: 'short', new_string: 'edited' }))).toMatch(/Edited a\/b\/c.txt/);
    expect(readFileSync(join(ws, 'a/b/c.txt'), 'utf8')).toBe('edited');
    expect(existsSync(join(ws, 'a/b/c.txt'))).toBe(true);
  });
});
