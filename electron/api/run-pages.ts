// A run's rows and its timeline, a page at a time (keyset cursors); a cursor a page did not give is refused.
import type { Db } from '../store/db.js';
import { ApiFailure } from './dispatch.js';
import { listRowsOfRunPage } from '../store/queries/rows.js';
import { listRunEventsPage } from '../store/queries/events.js';
import { rowView } from './kernel-views.js';

/** The next cursor of a page: the last item's key when the page came back full (more may follow), else null. */
const nextCursor = <T>(items: readonly T[], limit: number, key: (item: T) => string): string | null =>
  items.length === limit && items.length ? key(items[items.length - 1]) : null;

/** A page of a run's rows; a cursor that is not one of its rows is refused, not read as the start. */
export function rowsPage(db: Db, run_id: string, limit: number, cursor?: string) {
  const rows = listRowsOfRunPage(db, { run_id, limit, cursor });
  if (!rows)
    throw new ApiFailure(
      'invalid_input',
      `The cursor ${JSON.stringify(cursor)} is not a row of run ${JSON.stringify(run_id)}; pass the rows_next_cursor or next_cursor a page gave, or none to start at the first row.`,
    );
  return { items: rows.map(rowView), next_cursor: nextCursor(rows, limit, (r) => r.id) };
}

/** A page of a run's timeline; its cursor is a timeline position (a whole number) a page gave. */
export function eventsPage(db: Db, run_id: string, limit: number, cursor?: string) {
  if (cursor !== undefined && !/^[1-9][0-9]{0,14}$/.test(cursor)) {
    throw new ApiFailure(
      'invalid_input',
      `The cursor ${JSON.stringify(cursor)} is not a position in a run's timeline; pass the events_next_cursor or next_cursor a page gave, or none to start at the first event.`,
    );
  }
  const events = listRunEventsPage(db, { run_id, limit, after: cursor === undefined ? 0 : Number(cursor) });
  return { items: events.map(({ type, at, data }) => ({ type, at, data })), next_cursor: nextCursor(events, limit, (e) => String(e.seq)) };
}
