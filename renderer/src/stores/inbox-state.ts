// The shape of the Inbox store (inbox.ts), apart from it so the modules that build parts of it (inbox-answer.ts)
// name it without importing the store.
import type { InboxFilter, InboxItem } from './inbox-list.js';
import type { MethodOutput } from '../../../shared/api/index.js';

/** Trust for this session with an approval: none, the whole agent (true or 'agent'), or calls like this one. */
export type Trust = boolean | 'agent' | 'call';

export type GroupBy = 'none' | 'agent' | 'run' | 'chain';
/** The wire type of inboxSummary's answer (shared/api/kernel.ts): one source. */
export type InboxSummary = MethodOutput<'inboxSummary'>;

export interface InboxState {
  items: InboxItem[];
  hasMore: boolean;
  loaded: boolean;
  error: string | null;
  selectedId: string | null;
  filter: InboxFilter;
  groupBy: GroupBy;
  /** Counts for the filter (total) and its groups; null until asked for. */
  summary: InboxSummary | null;
  /** Why the window changed the filter itself (a group filter whose last card was answered). */
  filterNote: string | null;
  /** Cards checked for a bulk answer (may include cards not loaded yet: "select all matching"). */
  checked: Record<string, true>;
  /** Ids with an answer in flight: their buttons are disabled so a double press sends one answer. */
  busy: Record<string, boolean>;
  lastAnswer: { id: string; text: string; ok: boolean } | null;
  /** Bumped after each answer: the view moves focus to the next card. */
  answered: number;
  refresh(): Promise<void>;
  loadMore(): Promise<void>;
  refreshSummary(): Promise<void>;
  applyPushed(added: InboxItem[], removed: { id: string; status: string }[]): void;
  /** `keepNote`: the window itself changed the filter and says why (filterNote). */
  setFilter(f: InboxFilter, keepNote?: boolean): void;
  setGroupBy(g: GroupBy): void;
  select(id: string | null): void;
  move(delta: number): void;
  check(id: string, on: boolean): void;
  checkAllMatching(): Promise<number>;
  clearChecked(): void;
  bulk(action: 'approve' | 'deny', reason?: string): Promise<{ done: number; failed: number }>;
  /** `trust`: also trust for this session, the whole agent (true, 'agent') or calls like this one ('call'). */
  approve(id: string, trust?: Trust): Promise<void>;
  deny(id: string, reason?: string): Promise<void>;
  retry(id: string): Promise<void>;
  abandon(id: string): Promise<void>;
  answer(id: string, text: string): Promise<void>;
}
