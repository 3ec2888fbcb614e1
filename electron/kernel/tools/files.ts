// `read`, `write`, `edit`, `list`: file tools confined to the run's workspace (see workspace.ts).
// Bad input and refused paths come back as error results the model reads, never as thrown exceptions.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ExecutorTool } from '../types.js';
import type { ToolResult } from '../../../shared/types.js';
import { confine, ConfinementError, display } from './workspace.js';
import { readContent, replaceContent, withConfinedFile } from './confined-file.js';

const MAX_READ = 256 * 1024;
const ok = (text: string, structured?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
});
const fail = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

type Obj = Record<string, unknown>;
const obj = (input: unknown): Obj => (input && typeof input === 'object' && !Array.isArray(input) ? (input as Obj) : {});

/** Wrap a tool body: confinement and fs errors become error results. */
async function guarded(fn: () => ToolResult): Promise<ToolResult> {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ConfinementError) return fail(e.message);
    const err = e as NodeJS.ErrnoException;
    return fail(err.code ? `${err.code}: ${err.message}` : String(err.message ?? e));
  }
}

const pathTarget = (input: unknown, ws: string): string => {
  const p = obj(input).path;
  if (typeof p !== 'string') return '(no path)';
  try {
    return display(ws, confine(ws, p));
  } catch (e) {
    return `${p} (${e instanceof Error ? e.message : 'refused'})`;
  }
};

const current = (real: string): string => (existsSync(real) ? readFileSync(real, 'utf8') : '');
const patch = (ws: string, real: string, before: string, after: string) => {
  const name = display(ws, real);
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after);
};

/** The edit a call would make, or the reason it cannot be made. */
function applyEdit(text: string, i: Obj): { ok: true; text: string; count: number } | { ok: false; message: string } {
  const { old_string, new_string, replace_all } = i;
  if (typeof old_string !== 'string' || typeof new_string !== 'string') return { ok: false, message: 'edit needs "old_string" and "new_string" (text).' };
  if (old_string === '') return { ok: false, message: 'old_string may not be empty (use write to create a file).' };
  if (old_string === new_string) return { ok: false, message: 'old_string and new_string are the same: nothing to change.' };
  const count = text.split(old_string).length - 1;
  if (count === 0) return { ok: false, message: 'old_string was not found in the file (it must match exactly, whitespace included).' };
  if (count > 1 && replace_all !== true)
    return { ok: false, message: `old_string occurs ${count} times; add surrounding context to make it unique, or set replace_all.` };
  return { ok: true, text: replace_all === true ? text.split(old_string).join(new_string) : text.replace(old_string, () => new_string), count };
}

export const readTool: ExecutorTool = {
  name: 'read',
  description: 'Read a text file in the workspace. Optional 1-based line offset and line limit.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } }, required: ['path'] },
  target: pathTarget,
  run: (input, ctx) =>
    guarded(() => {
      const i = obj(input);
      const real = confine(ctx.workspace, i.path);
      const st = statSync(real);
      if (st.isDirectory()) return fail(`${display(ctx.workspace, real)} is a directory (use list).`);
      let text = readFileSync(real, 'utf8');
      if (typeof i.offset === 'number' || typeof i.limit === 'number') {
        const lines = text.split('\n');
        const from = Math.max(1, Math.floor(typeof i.offset === 'number' ? i.offset : 1)) - 1;
        const n = typeof i.limit === 'number' ? Math.max(0, Math.floor(i.limit)) : lines.length;
        text = lines.slice(from, from + n).join('\n');
      }
      if (Buffer.byteLength(text) > MAX_READ)
        text = `${Buffer.from(text).subarray(0, MAX_READ).toString('utf8')}\n[… truncated at ${MAX_READ} bytes; use offset/limit …]`;
      return ok(text);
    }),
};

export const writeTool: ExecutorTool = {
  name: 'write',
  description: 'Write a text file in the workspace (created with its folders, or replaced).',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  target: pathTarget,
  preview(input, ws) {
    const i = obj(input);
    if (typeof i.content !== 'string') return undefined;
    try {
      const real = confine(ws, i.path);
      return patch(ws, real, current(real), i.content);
    } catch {
      return undefined;
    }
  },
  run: (input, ctx) =>
    guarded(() => {
      const i = obj(input);
      if (typeof i.content !== 'string') return fail('write needs "content" (text).');
      const real = confine(ctx.workspace, i.path);
      if (existsSync(real) && statSync(real).isDirectory()) return fail(`${display(ctx.workspace, real)} is a directory.`);
      mkdirSync(dirname(real), { recursive: true });
      // Confined again, opened, and the open file itself checked (confined-file.ts): no check-then-write race.
      const content = i.content;
      return withConfinedFile(ctx.workspace, i.path, { create: true }, (f) => {
        replaceContent(f.fd, content);
        return ok(`Wrote ${Buffer.byteLength(content)} bytes to ${display(ctx.workspace, f.real)}.`);
      });
    }),
};

export const editTool: ExecutorTool = {
  name: 'edit',
  description: 'Replace old_string with new_string in a workspace file (exact match; unique unless replace_all).',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean' } },
    required: ['path', 'old_string', 'new_string'],
  },
  target: pathTarget,
  preview(input, ws) {
    try {
      const real = confine(ws, obj(input).path);
      const before = current(real);
      const r = applyEdit(before, obj(input));
      return r.ok ? patch(ws, real, before, r.text) : undefined;
    } catch {
      return undefined;
    }
  },
  run: (input, ctx) =>
    guarded(() => {
      const i = obj(input);
      const real = confine(ctx.workspace, i.path);
      if (!existsSync(real)) return fail(`${display(ctx.workspace, real)} does not exist (use write to create it).`);
      return withConfinedFile(ctx.workspace, i.path, { create: false }, (f) => {
        const r = applyEdit(readContent(f.fd), i);
        if (!r.ok) return fail(r.message);
        replaceContent(f.fd, r.text);
        return ok(`Edited ${display(ctx.workspace, f.real)} (${r.count} replacement${r.count === 1 ? '' : 's'}).`);
      });
    }),
};

export const listTool: ExecutorTool = {
  name: 'list',
  description: 'List a workspace folder (default: the workspace itself). Folders end with /.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  target: (input, ws) => (obj(input).path === undefined ? '.' : pathTarget(input, ws)),
  run: (input, ctx) =>
    guarded(() => {
      const p = obj(input).path ?? '.';
      const real = confine(ctx.workspace, p);
      const entries = readdirSync(real, { withFileTypes: true })
        .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
        .sort();
      return ok(entries.length ? entries.join('\n') : '(empty)', { entries });
    }),
};
