// The inbox's kinds. The kernel registers autonomy cards (approve/deny a parked row, parking.ts); GOVERNANCE
// registers `orchestration` (holds, id = request_id), AGENTS `attention` (retry/abandon) and `question`
// (answer). Every card lives in the one `inbox` table, so `nexus inbox` and the window list them together.
import type { InboxKind } from '../../shared/types.js';
import { answerCommands, answersOf, type InboxAnswer } from '../../shared/inbox/answers.js';
import {
  getInboxItem,
  insertInboxItem,
  listPendingInbox,
  listPendingInboxOfKinds,
  resolveInboxItem,
  type InboxEntry,
  type InsertInboxItem,
} from '../store/queries/inbox.js';
import { KernelError, notFound, conflict } from './errors.js';
import type { Db } from '../store/db.js';
import type { NexusEvent } from '../../shared/api/index.js';
import type { Clock } from './clock.js';
import type { InboxChange } from './kernel-state.js';

/** What the inbox needs of the kernel that owns it (the Kernel class satisfies it; handed in, not imported). */
export interface InboxHost {
  readonly clock: Clock;
  emit(event: NexusEvent): void;
  emitInbox(change?: InboxChange): void;
}

export type InboxAction = InboxAnswer;
export interface InboxActOptions {
  by: string;
  trust_session?: boolean;
  /** With trust_session: the whole agent (the default) or only calls like this one. */
  trust_scope?: 'agent' | 'call';
  reason?: string;
  text?: string;
}
export type InboxOutcome = { state: string } | Promise<{ state: string }>;

export interface InboxKindHandler {
  approve?(item: InboxEntry, opts: InboxActOptions): InboxOutcome;
  deny?(item: InboxEntry, opts: InboxActOptions): InboxOutcome;
  retry?(item: InboxEntry, opts: InboxActOptions): InboxOutcome;
  abandon?(item: InboxEntry, opts: InboxActOptions): InboxOutcome;
  answer?(item: InboxEntry, opts: InboxActOptions): InboxOutcome;
  /** Why a card that is no longer pending closed, when its kind knows a cause worth saying (not an answer). */
  closedBecause?(item: InboxEntry): string | null;
}

export class InboxKinds {
  private handlers = new Map<string, InboxKindHandler>();

  constructor(
    private readonly kernel: InboxHost,
    private readonly db: Db,
  ) {}

  register(kind: InboxKind, handler: InboxKindHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Add a card of another kind; announced as inbox_changed and work_available. */
  add(item: Omit<InsertInboxItem, 'now'>, title?: string): InboxEntry {
    const card = insertInboxItem(this.db, { ...item, now: this.kernel.clock.now() });
    this.announce(card, title);
    return card;
  }

  /**
   * Announce a card already written (work_available, inbox_changed). A module that writes its card inside a
   * transaction calls this once that transaction has committed, so nobody hears of a card that could vanish.
   */
  announce(item: InboxEntry, title?: string): void {
    this.kernel.emit({
      type: 'work_available',
      kind: item.kind,
      item_id: item.id,
      agent: item.agent,
      title: title ?? `${item.agent ?? 'A run'}: ${item.tool} ${item.target}`,
    });
    this.kernel.emitInbox({ added: [item] });
  }

  /** Close a card (answered elsewhere, expired, canceled). False when it was not pending. */
  resolve(id: string, status: string, by: string | null = null): boolean {
    const done = resolveInboxItem(this.db, { id, status, by, now: this.kernel.clock.now() });
    if (done) this.kernel.emitInbox({ removed: [{ id, status }] });
    return done;
  }

  get(id: string): InboxEntry | null {
    return getInboxItem(this.db, id);
  }
  pending(): InboxEntry[] {
    return listPendingInbox(this.db);
  }
  /** The pending cards of these kinds only, oldest first. */
  pendingOfKinds(kinds: readonly InboxKind[]): InboxEntry[] {
    return listPendingInboxOfKinds(this.db, kinds);
  }

  /** The answers a card takes (shared/inbox/answers.ts, the one list), as the commands that give them. */
  private howToAnswer(item: InboxEntry): string {
    const commands = answerCommands(answersOf(item)).map((c) => `\`${c}\``);
    return commands.length ? `use ${commands.join(' or ')}` : 'nothing answers it';
  }

  /** Let another module carry out more answers of a kind the kernel registered (AGENTS: answering an `ask` card). */
  extend(kind: InboxKind, more: InboxKindHandler): void {
    this.handlers.set(kind, { ...this.handlers.get(kind), ...more });
  }

  /** A person's answer to a card, routed to the card kind's handler. */
  async act(id: string, action: InboxAction, opts: InboxActOptions): Promise<{ id: string; state: string }> {
    const item = getInboxItem(this.db, id);
    if (!item) throw notFound('inbox item', id);
    if (item.status !== 'pending') {
      const why = this.handlers.get(item.kind)?.closedBecause?.(item);
      throw conflict(`Inbox item ${id} is no longer pending (it is ${item.status}${why ? `: ${why}` : ''}).`);
    }
    // A card takes only the answers its case lists: the same list the window's buttons and the CLI's hints show.
    const fn = answersOf(item).includes(action) ? this.handlers.get(item.kind)?.[action] : undefined;
    if (!fn)
      throw new KernelError(
        'not_supported',
        `${/^[aeiou]/.test(item.kind) ? 'An' : 'A'} ${item.kind} card cannot be answered with ${action}: ${this.howToAnswer(item)}.`,
      );
    const out = await fn(item, opts);
    return { id, state: out.state };
  }
}
