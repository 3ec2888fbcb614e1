// Paged lists at the command line: `--limit N` and `--cursor C` (the last id of the previous page) read one
// page; `runs show` without them follows the pages of rows and events, so its JSON keeps every row.
import type { KernelConnection } from './client.js';
import type { CliIo } from './io.js';
import { call } from './common.js';

/** Rows and events asked for per request when a command follows every page. */
const FOLLOW_PAGE = 500;

/** `--limit` as a whole number in 1..max, `fallback` when absent; a message when it is not one. */
export function parseLimit(value: unknown, max: number, fallback: number): number | string {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : `--limit must be a whole number 1..${max}`;
}

/** `--cursor` as given (the kernel says when it is not one it knows); a message when it is blank. */
export function parseCursor(value: unknown): string | undefined | { error: string } {
  if (value === undefined) return undefined;
  return typeof value === 'string' && value.trim() ? value : { error: '--cursor needs the id of the last item of a page' };
}

/** The hint printed under a full page: the command that reads the next one. */
export const moreLine = (command: string, cursor: string) => `more: ${command} --cursor ${cursor}`;

type Page<T> = { items: T[]; next_cursor: string | null };
interface RunShown {
  rows: unknown[];
  rows_next_cursor?: string | null;
  events?: unknown[];
  events_next_cursor?: string | null;
}

/**
 * A run with every row and event (the pages followed), or, with `limit`, one page of rows after `cursor`.
 * Undefined when a call failed (already printed).
 */
export async function showRun<T extends RunShown>(k: KernelConnection, io: CliIo, id: string, page?: { limit: number; cursor?: string }): Promise<T | undefined> {
  if (page) {
    const r = await call<T>(k, io, 'runsShow', { id, rows_limit: page.cursor === undefined ? page.limit : 1 });
    if (!r || page.cursor === undefined) return r?.value;
    const rows = await call<Page<unknown>>(k, io, 'runsRows', { run_id: id, cursor: page.cursor, limit: page.limit });
    return rows && { ...r.value, rows: rows.value.items, rows_next_cursor: rows.value.next_cursor };
  }
  const r = await call<T>(k, io, 'runsShow', { id, rows_limit: FOLLOW_PAGE, events_limit: FOLLOW_PAGE });
  if (!r) return undefined;
  const v = r.value;
  for (const [method, items, next] of [
    ['runsRows', 'rows', 'rows_next_cursor'],
    ['runsEvents', 'events', 'events_next_cursor'],
  ] as const) {
    const all = [...(v[items] ?? [])];
    for (let cursor = v[next]; cursor; ) {
      const p = await call<Page<unknown>>(k, io, method, { run_id: id, cursor, limit: FOLLOW_PAGE });
      if (!p) return undefined;
      all.push(...p.value.items);
      cursor = p.value.next_cursor;
    }
    if (v[items] !== undefined) Object.assign(v, { [items]: all, [next]: null });
  }
  return v;
}
