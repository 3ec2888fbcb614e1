// Pushed inbox changes, gathered and applied together. A bulk answer of N cards reaches the window as N
// events; applied one by one, each was a render of its own and React gave up after 50 in a row ("Maximum
// update depth exceeded"), throwing out of the event that was being applied, so its card stayed listed
// forever. Gathered, a burst is one store update and one render per GATHER_MS at most; the list goes first, the count
// after, and a failure in one never drops the other.
// A change that arrives after a quiet spell is applied at the end of its own task (a microtask: what came in the
// same task goes with it), so a card answered elsewhere leaves at once; changes that follow within GATHER_MS of
// an applied one wait for a timer, so a burst is still at most one store update per GATHER_MS. The window is
// shorter than a frame because answers given one after another in another window arrive about 10 ms apart: in a
// 16 ms window each would wait out the rest of it, past the list's 10 ms budget from event to screen.
import type { InboxItem } from './inbox-list.js';
import { useInbox } from './inbox.js';
import { useStatus } from './status.js';

/** How long after one applied change the next ones are gathered: half a frame (a render takes 1–2 ms). */
export const GATHER_MS = 8;

let added: InboxItem[] = [];
let removed: { id: string; status: string }[] = [];
let pending: number | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
/** A flush is queued as a microtask (cleared by any flush, so a stale one does nothing). */
let soon = false;
/** When gathered changes were last applied. */
let lastApplied = -Infinity;

export function queueInboxChange(count: number, add: InboxItem[], remove: { id: string; status: string }[]): void {
  if (add.length) added = added.concat(add);
  if (remove.length) removed = removed.concat(remove);
  pending = count;
  if (timer || soon) return;
  const wait = lastApplied + GATHER_MS - performance.now();
  if (wait > 0) timer = setTimeout(flushInboxChanges, wait);
  else {
    soon = true;
    queueMicrotask(() => {
      if (soon) flushInboxChanges();
    });
  }
}

/** Apply what was gathered now (before a refetch, and in tests). */
export function flushInboxChanges(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  soon = false;
  const a = added;
  const r = removed;
  const p = pending;
  added = [];
  removed = [];
  pending = null;
  if (a.length || r.length || p !== null) lastApplied = performance.now();
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
