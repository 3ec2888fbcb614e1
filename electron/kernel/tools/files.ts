// `read`, `write`, `edit`, `list`: file tools confined to the run's workspace (see workspace.ts).
// Bad input and refused paths come back as error results the model reads, never as thrown exceptions.
// Every tool works through a descriptor opened and checked by confined-file.ts, never through the path again.
import { createTwoFilesPatch } from 'diff';
import type { ExecutorTool } from '../types.js';
import type { ToolResult } from '../../../shared/types.js';
import { confine, ConfinementError, display } from './workspace.js';
import { FileToolError, listEntries, readContent, replaceContent, withConfined } from './confined-file.js';
import { errorMessage } from '../../../shared/errors.js';

const MAX_READ = 256 * 1024;
const ok = (text: string, structured?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
});
const fail = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

type Obj = Record<string, unknown>;
const obj = (input: unknown): Obj => (input && typeof input === 'object' && !Array.isArray(input) ? (input as Obj) : {});

const PLAIN: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'goes through something that is not a folder',
  EISDIR: 'is a directory',
  EACCES: 'cannot be opened: permission denied',
  EPERM: 'cannot be opened: permission denied',
};

/**
 * Wrap a tool body: confinement and fs errors become error results, in one plain sentence that names the path
 * as the call gave it. Node's own message ("ENOENT: no such file or directory, open '/abs/…'") repeats the
 * code and names the absolute workspace path, so it is never passed on.
 */
async function guarded(input: unknown, workspace: string, fn: () => ToolResult): Promise<ToolResult> {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ConfinementError || e instanceof FileToolError) return fail(e.message);
    const err = e instanceof Error ? (e as NodeJS.ErrnoException) : null;
    if (err?.path !== undefined && err.path === workspace)
      return fail("This run's workspace folder does not exist any more (it was moved or removed); nothing in it can be used.");
    const p = obj(input).path;
    const shown = typeof p === 'string' && p ? p : 'The path';
    const plain = (err?.code && PLAIN[err.code]) || `could not be used (${err?.code ?? 'an unexpected error'})`;
    return fail(`${shown} ${plain}.`);
  }
}

const pathTarget = (input: unknown, ws: string): string => {
  const p = obj(input).path;
  if (typeof p !== 'string') return '(no path)';
  try {
    return display(ws, confine(ws, p));
  } catch (e) {
    return `${p} (${errorMessage(e)})`;
  }
};

/** The file's text as a preview diffs it ('' when it does not exist yet), read through a checked descriptor. */
function current(ws: string, p: unknown): string {
  try {
    return withConfined(ws, p, 'read', (f) => (f.isDir ? '' : readContent(f.fd)));
  } catch (e) {
    if (e instanceof FileToolError && e.missing) return '';
    throw e;
  }
}
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
    guarded(input, ctx.workspace, () => {
      const i = obj(input);
      return withConfined(ctx.workspace, i.path, 'read', (f) => (f.isDir ? fail(`${f.shown} is a directory (use list).`) : ok(excerpt(readContent(f.fd), i))));
    }),
};

/** The lines asked for (1-based offset, limit), capped at MAX_READ bytes. */
function excerpt(all: string, i: Obj): string {
  let text = all;
  if (typeof i.offset === 'number' || typeof i.limit === 'number') {
    const lines = text.split('\n');
    const from = Math.max(1, Math.floor(typeof i.offset === 'number' ? i.offset : 1)) - 1;
    const n = typeof i.limit === 'number' ? Math.max(0, Math.floor(i.limit)) : lines.length;
    text = lines.slice(from, from + n).join('\n');
  }
  if (Buffer.byteLength(text) > MAX_READ)
    text = `${Buffer.from(text).subarray(0, MAX_READ).toString('utf8')}\n[… truncated at ${MAX_READ} bytes; use offset/limit …]`;
  return text;
}

export const writeTool: ExecutorTool = {
  name: 'write',
  description: 'Write a text file in the workspace (created with its folders, or replaced).',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  target: pathTarget,
  preview(input, ws) {
    const i = obj(input);
    if (typeof i.content !== 'string') return undefined;
    try {
      return patch(ws, confine(ws, i.path), current(ws, i.path), i.content);
    } catch {
      return undefined;
    }
  },
  run: (input, ctx) =>
    guarded(input, ctx.workspace, () => {
      const i = obj(input);
      if (typeof i.content !== 'string') return fail('write needs "content" (text).');
      const content = i.content;
      return withConfined(ctx.workspace, i.path, 'create', (f) => {
        replaceContent(f.fd, content);
        return ok(`Wrote ${Buffer.byteLength(content)} bytes to ${f.shown}.`);
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
      const before = current(ws, obj(input).path);
      const r = applyEdit(before, obj(input));
      return r.ok ? patch(ws, real, before, r.text) : undefined;
    } catch {
      return undefined;
    }
  },
  run: (input, ctx) =>
    guarded(input, ctx.workspace, () => {
      const i = obj(input);
      try {
        return withConfined(ctx.workspace, i.path, 'write', (f) => {
          const r = applyEdit(readContent(f.fd), i);
          if (!r.ok) return fail(r.message);
          replaceContent(f.fd, r.text);
          return ok(`Edited ${f.shown} (${r.count} replacement${r.count === 1 ? '' : 's'}).`);
        });
      } catch (e) {
        if (e instanceof FileToolError && e.missing) return fail(`${e.shown} does not exist (use write to create it).`);
        throw e;
      }
    }),
};

export const listTool: ExecutorTool = {
  name: 'list',
  description: 'List a workspace folder (default: the workspace itself). Folders end with /.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  target: (input, ws) => (obj(input).path === undefined ? '.' : pathTarget(input, ws)),
  run: (input, ctx) =>
    guarded(input, ctx.workspace, () => {
      const p = obj(input).path ?? '.';
      return withConfined(ctx.workspace, p, 'list', (f) => {
        const entries = listEntries(f)
          .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
          .sort();
        return ok(entries.length ? entries.join('\n') : '(empty)', { entries });
      });
    }),
};
