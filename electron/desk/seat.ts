// This machine's seat at a team desk, as the window and the CLI see it: joined at start (`nexus serve --desk`,
// NEXUS_DESK_URL) or from Settings ▸ Desk (remembered in this data dir: URL without password, machine and person
// in desk_state; the password in the secret store, the OS keychain in the desktop app), and left again.
// The DeskClient does the talking; this file only makes, remembers and ends it, and says when it changed.
import { z } from 'zod';
import type { Db } from '../store/db.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Governance } from '../governance/service.js';
import { readDeskState, setDeskJoined, writeDeskState } from '../store/queries/desk-outbox.js';
import { DeskClient, redactUrl, type DeskOptions } from './client.js';
import type { DeskCard, DeskStatus } from '../../shared/api/desk.js';
import { errorMessage } from '../../shared/errors.js';
import type { SaveProfile } from './policy.js';

const Saved = z.object({ url: z.string(), machine: z.string(), person: z.string().nullable() }).nullable();
const SAVED_KEY = 'seat';

export class DeskSeatError extends Error {
  constructor(
    readonly code: 'conflict' | 'desk_unreachable' | 'not_joined',
    message: string,
  ) {
    super(message);
  }
}

export interface SeatPorts {
  db: Db;
  kernel: Kernel;
  governance: Governance | null;
  saveProfile?: SaveProfile;
}

/** The password a URL carries, taken out of it: the URL is what may be shown and saved. */
export function splitPassword(url: string): { url: string; password?: string } {
  try {
    const u = new URL(url);
    if (!u.password) return { url };
    const password = decodeURIComponent(u.password);
    u.password = '';
    return { url: u.toString().replace(/:@/, '@'), password };
  } catch {
    return { url };
  }
}

/** A Postgres or socket failure as a sentence a person can act on. */
export function deskErrorSentence(message: string): string {
  const refused = /ECONNREFUSED\s*([\d.:[\]a-f]*)/i.exec(message);
  if (refused) return `nothing answers at ${refused[1] || 'that address'} (is PostgreSQL running there, on that port?)`;
  const host = /ENOTFOUND\s*(\S*)/i.exec(message);
  if (host) return `no host named ${host[1] || 'that'} could be found`;
  if (/CONNECT_TIMEOUT|ETIMEDOUT/i.test(message)) return 'the desk did not answer in time (a firewall, or the wrong host?)';
  return message;
}

export class DeskSeat {
  private client: DeskClient | null = null;
  private source: 'start' | 'saved' | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private lastKey = '';
  private lastEmit = 0;
  private offCards: (() => void) | null = null;

  constructor(
    private readonly ports: SeatPorts,
    startOpts: DeskOptions | null,
  ) {
    const saved = startOpts ? null : readDeskState(ports.db, { key: SAVED_KEY, schema: Saved, fallback: null });
    const opts = startOpts ?? (saved ? { ...saved, ...this.password() } : null);
    if (opts) this.seat(new DeskClient(ports, opts), startOpts ? 'start' : 'saved');
    else setDeskJoined(ports.db, false); // a data dir that once joined, started without a desk: its triggers stay quiet
    // Windows never poll: the seat pushes desk_changed when what deskStatus says changes (and every 5 s while
    // joined, so "last heard" stays fresh).
    this.timer = setInterval(() => this.watch(), 1000);
    this.timer.unref?.();
  }

  get desk(): DeskClient | null {
    return this.client;
  }

  /** After recovery (createNexus): connect the seat made at start, if any. */
  start(): void {
    if (this.client) void this.client.start();
  }

  status(): DeskStatus {
    const c = this.client;
    const s = c?.status();
    return {
      joined: Boolean(c),
      source: this.source,
      url: s?.url ?? null,
      machine: s?.machine ?? null,
      person: c?.opts.person ?? null,
      connected: s?.connected ?? false,
      last_heard_at: s?.last_heard_at ?? null,
      outbox_pending: s?.outbox_pending ?? 0,
      silence_stop: c ? c.silent() : false,
      silence_stop_s: c?.opts.silenceStopS ?? null,
      password_stored: this.password().password !== undefined,
      password_store: this.ports.kernel.secrets.encrypted
        ? 'encrypted by the OS keychain'
        : `in ${this.ports.kernel.secrets.path}, readable by you alone (no OS keychain here)`,
      last_error: s?.last_error ? deskErrorSentence(s.last_error) : null,
    };
  }

  /** Join and remember; refused (nothing remembered) unless the desk answers now. */
  async join(a: { url: string; machine: string; person: string | null; password?: string }): Promise<DeskStatus> {
    if (this.client) {
      const s = this.status();
      throw new DeskSeatError('conflict', `This machine is already at the desk at ${s.url} as ${s.machine}: leave that desk first.`);
    }
    const split = splitPassword(a.url);
    const password = a.password ?? split.password;
    const client = new DeskClient(this.ports, { url: split.url, machine: a.machine, person: a.person, ...(password ? { password } : {}) });
    await client.start();
    const s = client.status();
    if (!s.connected) {
      await client.close();
      this.unseat();
      throw new DeskSeatError('desk_unreachable', `Could not join the desk at ${s.url}: ${deskErrorSentence(s.last_error ?? 'it did not answer')}.`);
    }
    writeDeskState(this.ports.db, { key: SAVED_KEY, value: { url: split.url, machine: a.machine, person: a.person } });
    this.ports.kernel.secrets.setDesk(password ?? null);
    this.seat(client, 'saved');
    this.changed();
    return this.status();
  }

  /** Send what waits, mark this machine gone at the desk, and forget the seat (force: even when the desk is down). */
  async leave(force = false): Promise<DeskStatus> {
    const c = this.client;
    if (c) {
      try {
        await withTimeout(c.leave(), 10_000);
      } catch (e) {
        if (!force) {
          const n = c.status().outbox_pending;
          throw new DeskSeatError(
            'desk_unreachable',
            `Could not leave the desk at ${redactUrl(c.opts.url)}: ${deskErrorSentence(errorMessage(e))}. ${n} change${n === 1 ? '' : 's'} wait in the outbox; leave once the desk is back, or leave anyway (they stay here and are sent if this machine joins again).`,
          );
        }
        await c.close();
      }
    }
    writeDeskState(this.ports.db, { key: SAVED_KEY, value: null });
    this.ports.kernel.secrets.setDesk(null);
    this.unseat();
    this.changed();
    return this.status();
  }

  async inbox(limit = 100): Promise<{ machine: string | null; cards: DeskCard[] }> {
    const c = this.client;
    if (!c) return { machine: null, cards: [] };
    const me = c.opts.machine;
    const cards = await c.inbox(limit);
    return { machine: me, cards: cards.map((x) => ({ ...x, local: x.machine === me })) };
  }

  answer(id: string, verdict: 'approve' | 'deny', reason: string | null): Promise<{ answer_id: number; machine: string }> {
    if (!this.client) throw new DeskSeatError('not_joined', 'This machine is not at a team desk: join one in Settings ▸ Desk.');
    return this.client.answer(id, verdict, reason);
  }

  async pushPolicy(): Promise<{ keys: string[]; person: string }> {
    const c = this.client;
    if (!c) throw new DeskSeatError('not_joined', 'This machine is not at a team desk: join one in Settings ▸ Desk.');
    return { keys: await c.pushPolicy(), person: c.opts.person ?? '' };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.offCards?.();
    await this.client?.close();
  }

  private password(): { password?: string } {
    const p = this.ports.kernel.secrets.getDesk();
    return p ? { password: p } : {};
  }

  private seat(client: DeskClient, source: 'start' | 'saved'): void {
    this.client = client;
    this.source = source;
    this.offCards = client.onCards(() => this.changed());
  }

  /** No desk: the kernel writes no outbox and governed hops no longer wait on the desk's Stop all or silence. */
  private unseat(): void {
    this.offCards?.();
    this.offCards = null;
    this.client = null;
    this.source = null;
    this.ports.kernel.setDeskOutbox(false);
    setDeskJoined(this.ports.db, false); // the store's triggers stop feeding the outbox too
    if (this.ports.governance) this.ports.governance.deskStop = () => false;
  }

  private watch(): void {
    if (!this.client || !this.ports.kernel.isOpen) return;
    const s = this.status();
    const key = JSON.stringify([s.connected, s.outbox_pending, s.silence_stop, s.last_error]);
    if (key !== this.lastKey || Date.now() - this.lastEmit >= 5000) this.changed(key);
  }

  private changed(key?: string): void {
    this.lastKey = key ?? '';
    this.lastEmit = Date.now();
    if (this.ports.kernel.isOpen) this.ports.kernel.emit({ type: 'desk_changed' });
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, rej) => {
    t = setTimeout(() => rej(new Error('the desk did not answer in time')), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(t));
}
