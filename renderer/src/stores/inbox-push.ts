// Pushed inbox changes, gathered and applied together. A bulk answer of N cards reaches the window as N
// events; applied one by one, each was a render of its own and React gave up after 50 in a row ("Maximum
// update depth exceeded"), throwing out of the event that was being applied, so its card stayed listed
// forever. Gathered, a burst is one store update and one render; the list goes first, the count after, and a
// failure in one never drops the other.
import type { InboxItem } from './inbox-list.js';
import { useInbox } from './inbox.js';
import { useStatus } from './status.js';

/** How long a burst is gathered: under one frame, so an answer still leaves the screen at once. */
export const GATHER_MS = 16;

let added: InboxItem[] = [];
let removed: { id: string; status: string }[] = [];
let pending: number | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

export function queueInboxChange(count: number, add: InboxItem[], remove: { id: string; status: string }[]): void {
  if (add.length) added = added.concat(add);
  if (remove.length) removed = removed.concat(remove);
  pending = count;
  timer ??= setTimeout(flushInboxChanges, GATHER_MS);
}

/** Apply what was gathered now (before a refetch, and in tests). */
export function flushInboxChanges(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const a = added;
  const r = removed;
  const p = pending;
  added = [];
  removed = [];
  pending = null;
  let failure: unknown = null;
  try {
    if (a.length || r.length) useInbox.getState().applyPushed(a, r);
  } catch (e) {
    failure = e;
  }
  try {
    if (p !== null) useStatus.getState().setPending(p);
  } catch (e) {
    failure ??= e;
  }
  if (failure) throw failure;
}
