// One card's answer, as the inbox store sends it: the card leaves the list at once, Approve and Deny are
// held for the undo grace first (answer-grace.ts), and a refusal or an Undo puts the card back where it was.
import type { StoreApi } from 'zustand';
import { CallError } from '../api/client.js';
import { cardLabel, reselect } from './inbox-list.js';
import { graceMs, holdAnswer } from './answer-grace.js';
import type { InboxState } from './inbox-state.js';
import { errorMessage } from '../../../shared/errors.js';
import { answersOf } from '../../../shared/inbox/answers.js';

type Get = StoreApi<InboxState>['getState'];
type Set = StoreApi<InboxState>['setState'];

export const makeAnswering =
  (get: Get, set: Set) =>
  (label: string, fn: (id: string, ...a: never[]) => Promise<unknown>) =>
  async (id: string, ...args: never[]) => {
    if (get().busy[id]) return;
    const item = get().items.find((i) => i.id === id);
    const at = get().items.findIndex((i) => i.id === id);
    const name = item ? ` · ${cardLabel(item)}` : '';
    // A card that cannot be retried offers Dismiss, not Abandon (CardDetail): the toast says the word on the button.
    const word = label === 'Abandoned' && item && !(item.answers ?? answersOf(item)).includes('retry') ? 'Dismissed' : label;
    const settles = label !== 'Retrying';
    const putBack = (s: InboxState) =>
      item && settles && !s.items.some((i) => i.id === id) ? [...s.items.slice(0, Math.max(at, 0)), item, ...s.items.slice(Math.max(at, 0))] : s.items;
    // The answered card leaves the list at once (the kernel's event confirms it); a refusal puts it back.
    set((s) => {
      const items = settles ? s.items.filter((i) => i.id !== id) : s.items;
      return { busy: { ...s.busy, [id]: true }, items, selectedId: settles ? reselect(s.items, items, s.selectedId) : s.selectedId };
    });
    try {
      const graced = (label === 'Approved' || label === 'Denied') && graceMs() > 0;
      // Focus moves on to the next card now; the toast of the held answer carries Undo.
      if (graced) set((s) => ({ lastAnswer: null, answered: s.answered + 1 }));
      if (graced && !(await holdAnswer(id, `${word}${name}`))) {
        set((s) => ({ items: putBack(s), selectedId: id, lastAnswer: { id, text: `Undone, nothing was sent${name}`, ok: true }, answered: s.answered + 1 }));
        return;
      }
      await fn(id, ...args);
      set((s) => ({ lastAnswer: { id, text: `${word}${name}`, ok: true }, answered: s.answered + (graced ? 0 : 1) }));
    } catch (e) {
      // A card someone else answered meanwhile ('conflict') stays gone: it is no longer pending.
      const answeredElsewhere = e instanceof CallError && e.code === 'conflict';
      set((s) => ({
        items: answeredElsewhere ? s.items : putBack(s),
        lastAnswer: { id, text: `${errorMessage(e)}${name}`, ok: false },
        answered: s.answered + 1,
      }));
    } finally {
      set((s) => {
        const busy = { ...s.busy };
        delete busy[id];
        const checked = { ...s.checked };
        delete checked[id];
        return { busy, checked };
      });
    }
  };
