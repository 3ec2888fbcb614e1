// Executor tools: confinement to the workspace (.., absolute elsewhere, symlink out), file tools, bash.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confine, ConfinementError, prepareWorkspace } from './workspace.js';
import { bashTool, runCommand } from './bash.js';
import { childEnv } from '../../sandbox/env.js';
import { editTool, listTool, readTool, writeTool } from './files.js';
import type { ExecutorTool, ToolContext } from '../types.js';
import { world, type World } from '../../../test/support/world.js';

let w: World;
let root: string;
let ws: string;
let outside: string;
beforeEach(() => {
  w = world();
  root = w.dir('tools');
  ws = prepareWorkspace(join(root, 'ws'));
  outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
});
afterEach(() => w.cleanup());

const ctx = (signal = new AbortController().signal): ToolContext => ({ workspace: ws, signal, run: {} as never, row: {} as never });
const run = (t: ExecutorTool, input: unknown, signal?: AbortSignal) => t.run(input, ctx(signal));
const text = (r: { content: { text: string }[] }) => r.content[0].text;

describe('confinement', () => {
  it('resolves a relative path inside the workspace (existing or not)', () => {
    expect(confine(ws, 'a/b.txt')).toBe(join(ws, 'a/b.txt'));
    expect(confine(ws, '.')).toBe(ws);
    expect(confine(ws, join(ws, 'x'))).toBe(join(ws, 'x'));
  });
  it('refuses a path that leaves with ..', () => {
    expect(() => confine(ws, '../outside/secret.txt')).toThrow(ConfinementError);
    expect(() => confine(ws, 'a/../../outside')).toThrow(/outside the workspace/);
  });
  it('refuses an absolute path elsewhere', () => {
    expect(() => confine(ws, '/etc/passwd')).toThrow(/outside the workspace/);
    expect(() => confine(ws, join(outside, 'secret.txt'))).toThrow(ConfinementError);
  });
  it('refuses a symlink that leads out (file and folder)', () => {
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    symlinkSync(outside, join(ws, 'linkdir'));
    expect(() => confine(ws, 'link.txt')).toThrow(/resolves to/);
    expect(() => confine(ws, 'linkdir/new.txt')).toThrow(/outside the workspace/);
  });
  it('refuses a dangling symlink (writing through it would create a file outside)', () => {
    symlinkSync(join(outside, 'not-yet.txt'), join(ws, 'dangling'));
    expect(() => confine(ws, 'dangling')).toThrow(/symlink that leads nowhere/);
  });
  it('allows a symlink that stays inside', () => {
    writeFileSync(join(ws, 'real.txt'), 'x');
    symlinkSync(join(ws, 'real.txt'), join(ws, 'alias.txt'));
    expect(confine(ws, 'alias.txt')).toBe(join(ws, 'real.txt'));
  });
  it('refuses empty and NUL paths', () => {
    expect(() => confine(ws, '')).toThrow(ConfinementError);
    expect(() => confine(ws, 'a\0b')).toThrow(ConfinementError);
    expect(() => confine(ws, 42)).toThrow(ConfinementError);
  });
});

describe('file tools refuse what leaves the workspace, with a clear error the model reads', () => {
  it('read, write, edit, list each refuse .., absolute and symlink escapes', async () => {
    symlinkSync(outside, join(ws, 'out'));
    for (const p of ['../outside/secret.txt', join(outside, 'secret.txt'), 'out/secret.txt']) {
      for (const [t, input] of [
        [readTool, { path: p }],
        [writeTool, { path: p, content: 'pwned' }],
        [editTool, { path: p, old_string: 'secret', new_string: 'pwned' }],
        [listTool, { path: p }],
      ] as const) {
        const r = await run(t, input);
        expect(r.isError, `${t.name} ${p}`).toBe(true);
        expect(text(r)).toMatch(/outside the workspace/);
      }
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });
});

describe('file tools', () => {
  it('write creates folders; read reads with offset/limit; list lists', async () => {
    expect(text(await run(writeTool, { path: 'a/b/c.txt', content: 'l1\nl2\nl3\n' }))).toMatch(/Wrote 9 bytes to a\/b\/c.txt/);
    expect(text(await run(readTool, { path: 'a/b/c.txt', offset: 2, limit: 1 }))).toBe('l2');
    expect(text(await run(listTool, {}))).toBe('a/');
    expect(text(await run(listTool, { path: 'a/b' }))).toBe('c.txt');
  });
  it('edit replaces exactly once, refuses ambiguity and absence', async () => {
    writeFileSync(join(ws, 'f.txt'), 'x = 1\ny = 1\n');
    expect((await run(editTool, { path: 'f.txt', old_string: '1', new_string: '2' })).isError).toBe(true);
    expect(text(await run(editTool, { path: 'f.txt', old_string: '1', new_string: '2' }))).toMatch(/occurs 2 times/);
    expect(text(await run(editTool, { path: 'f.txt', old_string: 'z', new_string: '2' }))).toMatch(/not found/);
    expect((await run(editTool, { path: 'f.txt', old_string: 'y = 1', new_string: 'y = $&2' })).isError).toBeUndefined();
    expect(readFileSync(join(ws, 'f.txt'), 'utf8')).toBe('x = 1\ny = $&2\n');
    expect(text(await run(editTool, { path: 'f.txt', old_string: '=', new_string: ':', replace_all: true }))).toMatch(/2 replacements/);
  });
  it('errors are one sentence naming the workspace-relative path: no errno prefix twice, no workspace location', async () => {
    writeFileSync(join(ws, 'file'), 'x');
    mkdirSync(join(ws, 'dir'));
    const cases: Array<[ExecutorTool, unknown, RegExp]> = [
      [readTool, { path: 'a/b/missing.txt' }, /^a\/b\/missing\.txt does not exist\.$/],
      [readTool, { path: 'file/x' }, /^file is not a folder\.$/],
      [readTool, { path: 'dir' }, /^dir is a directory \(use list\)\.$/],
      [writeTool, { path: 'dir', content: 'x' }, /^dir is a directory\.$/],
      [editTool, { path: 'nope', old_string: 'a', new_string: 'b' }, /^nope does not exist \(use write to create it\)\.$/],
      [listTool, { path: 'file' }, /^file is not a folder\.$/],
      [readTool, { path: '../outside/secret.txt' }, /^\.\.\/outside\/secret\.txt is outside the workspace/],
    ];
    for (const [t, input, want] of cases) {
      const r = await run(t, input);
      expect(r.isError, JSON.stringify(input)).toBe(true);
      expect(text(r)).toMatch(want);
      expect(text(r)).not.toContain(ws);
      expect(text(r)).not.toMatch(/E[A-Z]+: E[A-Z]+:/);
    }
  });
  it('edit preview is a unified diff; write preview diffs against the current file', () => {
    writeFileSync(join(ws, 'f.txt'), 'a\nb\n');
    expect(editTool.preview!({ path: 'f.txt', old_string: 'b', new_string: 'c' }, ws)).toMatch(/-b\n\+c/);
    expect(writeTool.preview!({ path: 'new.txt', content: 'hello\n' }, ws)).toMatch(/\+hello/);
    expect(writeTool.preview!({ path: '../escape', content: 'x' }, ws)).toBeUndefined();
  });
});

describe('bash', () => {
  it('runs in the workspace and captures output and exit code', async () => {
    const r = await run(bashTool, { command: 'pwd; echo err >&2; exit 3' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ exit_code: 3, stdout: `${ws}\n`, stderr: 'err\n', timed_out: false });
    expect(text(r)).toContain('[exit code 3]');
  });
  it('kills the command at its timeout (timed_out)', async () => {
    const t0 = Date.now();
    const r = await run(bashTool, { command: 'sleep 20', timeout_s: 0.3 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.structuredContent).toMatchObject({ timed_out: true });
    expect(r.isError).toBe(true);
  });
  it("honours Claude Code's timeout (ms) and Codex's timeout_ms", async () => {
    expect((await run(bashTool, { command: 'sleep 20', timeout: 200 })).structuredContent).toMatchObject({ timed_out: true });
    expect((await run(bashTool, { command: 'sleep 20', timeout_ms: 200 })).structuredContent).toMatchObject({ timed_out: true });
    expect((await run(bashTool, { command: 'true', timeout: -1 })).isError).toBe(true);
  });
  it('kills the whole process group when stopped (no child left behind)', async () => {
    const ac = new AbortController();
    // A background child that would write after the stop: it must be killed with the group.
    const pending = run(bashTool, { command: '(sleep 1; echo survived > after.txt) & echo started > bg.txt; wait' }, ac.signal);
    for (let i = 0; i < 200 && !existsSync(join(ws, 'bg.txt')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(join(ws, 'bg.txt'))).toBe(true);
    ac.abort();
    expect((await pending).structuredContent).toMatchObject({ exit_code: null });
    await new Promise((r) => setTimeout(r, 1500));
    expect(existsSync(join(ws, 'after.txt'))).toBe(false);
  });
  it('caps output (head and tail kept)', async () => {
    const o = await runCommand('head -c 300000 /dev/zero | tr "\\0" a', { cwd: ws, timeout_ms: 10_000 });
    expect(o.stdout.length).toBeLessThan(70_000);
    expect(o.stdout).toMatch(/bytes elided/);
  });
  it('an argv command runs as that argv', async () => {
    const r = await run(bashTool, { command: ['bash', '-c', 'echo "a  b"'] });
    expect(r.structuredContent).toMatchObject({ stdout: 'a  b\n', exit_code: 0 });
  });
  it('does not hand secret-looking variables to the command', () => {
    const env = childEnv({ PATH: '/bin', OPENAI_API_KEY: 'sk', GITHUB_TOKEN: 't', HOME: '/h' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h' });
  });
  it('refuses a missing command', async () => {
    expect((await run(bashTool, {})).isError).toBe(true);
  });
});
