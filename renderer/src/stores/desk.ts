// This machine's seat at a team desk and the desk's cards of other machines (Settings ▸ Desk, the Inbox's desk
// groups). Refetched on the kernel's desk_changed push; never polled.
import { create } from 'zustand';
import { call } from '../api/client.js';
import { coalesce } from './refetcher.js';
import { errorMessage } from '../../../shared/errors.js';
import type { MethodInput, MethodOutput } from '../../../shared/api/index.js';

export type DeskStatus = MethodOutput<'deskStatus'>;
export type DeskCard = MethodOutput<'deskInbox'>['cards'][number];

interface DeskState {
  status: DeskStatus | null;
  /** The desk's pending cards of OTHER machines (this machine's are the Inbox's own queue). */
  cards: DeskCard[];
  /** Why the desk's cards could not be read (the seat's own state is in status). */
  error: string | null;
  /** The card being answered, and the last answer's sentence. */
  answering: string | null;
  answered: { id: string; ok: boolean; text: string } | null;
  refresh(): Promise<void>;
  join(input: MethodInput<'deskJoin'>): Promise<void>;
  leave(force?: boolean): Promise<void>;
  answer(card: DeskCard, verdict: 'approve' | 'deny'): Promise<void>;
}

export const useDesk = create<DeskState>((set, get) => {
  const refresh = coalesce(async () => {
    try {
      const status = await call('deskStatus', {});
      set({ status });
      if (!status.joined) return set({ cards: [], error: null });
      const inbox = await call('deskInbox', { limit: 200 });
      set({ cards: inbox.cards.filter((c) => !c.local), error: null });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  });
  return {
    status: null,
    cards: [],
    error: null,
    answering: null,
    answered: null,
    refresh,
    async join(input) {
      const status = await call('deskJoin', input);
      set({ status });
      await refresh();
    },
    async leave(force) {
      const status = await call('deskLeave', force ? { force: true } : {});
      set({ status, cards: [] });
    },
    async answer(card, verdict) {
      if (get().answering) return;
      set({ answering: card.id, answered: null });
      const what = `${card.agent ?? 'a run'} ${card.tool} on ${card.machine}`;
      try {
        await call('deskAnswer', { id: card.id, verdict });
        set({
          answered: {
            id: card.id,
            ok: true,
            text: `${verdict === 'approve' ? 'Approved' : 'Denied'} ${what}: ${card.machine} applies it if no one answered first.`,
          },
        });
      } catch (e) {
        set({ answered: { id: card.id, ok: false, text: `Could not answer ${what}: ${errorMessage(e)}` } });
      } finally {
        set({ answering: null });
        await refresh();
      }
    },
  };
});

/** The desk's cards by machine, machines in name order, each machine's cards oldest first (as listed). */
export function byMachine(cards: DeskCard[]): Array<{ machine: string; cards: DeskCard[] }> {
  const groups = new Map<string, DeskCard[]>();
  for (const c of cards) groups.set(c.machine, [...(groups.get(c.machine) ?? []), c]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([machine, list]) => ({ machine, cards: list }));
}
