// Paged lists at the command line: `--limit N` and `--cursor C` (the last id of the previous page) read one
// page; `runs show` without them follows the pages of rows and events, so its JSON keeps every row.
import type { CliIo } from './io.js';
import { expectValue, usageError, type Parsed } from './common.js';
import type { MethodOutput, NexusApi, Result } from '../../shared/api/index.js';

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

/** `--limit` and `--cursor` of a paged list, or the exit code of the usage error already printed. */
export function pageArgs(p: Parsed, io: CliIo, usage: string, max: number, fallback: number): { limit: number; cursor?: string } | number {
  const limit = parseLimit(p.values.limit, max, fallback);
  if (typeof limit === 'string') return usageError(io, usage, limit);
  const cursor = parseCursor(p.values.cursor);
  if (typeof cursor === 'object') return usageError(io, usage, cursor.error);
  return { limit, ...(cursor ? { cursor } : {}) };
}

/** The hint printed under a full page: the command that reads the next one. */
export const moreLine = (command: string, cursor: string) => `more: ${command} --cursor ${cursor}`;

type RunDetail = MethodOutput<'runsShow'>;
type Page<T> = { items: T[]; next_cursor: string | null };

/** `first` and every page after `cursor`, in order; undefined when a call failed (already printed). */
async function follow<T>(
  io: CliIo,
  first: readonly T[],
  cursor: string | null | undefined,
  read: (cursor: string) => Promise<Result<Page<T>>>,
): Promise<T[] | undefined> {
  const all = [...first];
  while (cursor) {
    const p = await expectValue(io, read(cursor));
    if (!p) return undefined;
    all.push(...p.value.items);
    cursor = p.value.next_cursor;
  }
  return all;
}

/**
 * A run with every row and event (the pages followed), or, with `limit`, one page of rows after `cursor`.
 * Undefined when a call failed (already printed).
 */
export async function showRun(api: NexusApi, io: CliIo, id: string, page?: { limit: number; cursor?: string }): Promise<RunDetail | undefined> {
  if (page) {
    const r = await expectValue(io, api.runsShow({ id, rows_limit: page.cursor === undefined ? page.limit : 1 }));
    if (!r || page.cursor === undefined) return r?.value;
    const rows = await expectValue(io, api.runsRows({ run_id: id, cursor: page.cursor, limit: page.limit }));
    return rows && { ...r.value, rows: rows.value.items, rows_next_cursor: rows.value.next_cursor };
  }
  const r = await expectValue(io, api.runsShow({ id, rows_limit: FOLLOW_PAGE, events_limit: FOLLOW_PAGE }));
  if (!r) return undefined;
  const v = r.value;
  const rows = await follow(io, v.rows, v.rows_next_cursor, (cursor) => api.runsRows({ run_id: id, cursor, limit: FOLLOW_PAGE }));
  if (!rows) return undefined;
  if (!v.events) return { ...v, rows, rows_next_cursor: null };
  const events = await follow(io, v.events, v.events_next_cursor, (cursor) => api.runsEvents({ run_id: id, cursor, limit: FOLLOW_PAGE }));
  return events && { ...v, rows, rows_next_cursor: null, events, events_next_cursor: null };
}
