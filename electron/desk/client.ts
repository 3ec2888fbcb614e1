// One kernel's seat at a team desk (DESIGN §8): the Postgres connection, the heartbeat, the outbox drain, the
// NOTIFY wake-ups and the catch-up by sequence. Losing the desk is a stop, not a licence: silent for longer than
// silenceStopS (liveness.ts), this machine treats Stop all as engaged for governed hops until it hears it again.
import { z } from 'zod';
import type { Db } from '../store/db.js';
import { outboxPending, setDeskJoined } from '../store/queries/desk-outbox.js';
import { DeskOptionsSchema, deskInstance, redactUrl, type DeskOptions, type DeskStatus } from './options.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Governance } from '../governance/service.js';
import { drainOutbox } from './drain.js';
import { answerAndWait, answerCard } from './answering.js';
import { answersSeen, applyAnswer, type AnswerOutcome } from './answers.js';
import * as q from './pg/queries.js';
import { deskVersion, PG_MIGRATIONS } from './pg/migrate.js';
import { openDeskSql, type DeskSql } from './pg/conn.js';
import { PolicySync } from './policy-sync.js';
import type { SaveProfile } from './policy.js';
import { SingleFlight } from './single-flight.js';
import { DeskStopAll } from './desk-stop-all.js';
import { DeskLiveness } from './liveness.js';

export { DeskOptionsSchema, redactUrl, type DeskOptions, type DeskStatus } from './options.js';

/** Failed heartbeats in a row before the pool is replaced (at the default 1 s beat: every 5 s of outage). */
const RENEW_AFTER = 5;

export interface DeskPorts {
  db: Db;
  kernel: Kernel;
  governance: Governance | null;
  /** How a desk profile is saved here (the agents layer's saveAgent); absent: profiles from the desk are refused. */
  saveProfile?: SaveProfile;
}

export class DeskClient {
  readonly opts: z.output<typeof DeskOptionsSchema>;
  private sql: DeskSql;
  private failedBeats = 0;
  /** Whether the desk is heard, and since when it is silent (liveness.ts). */
  private readonly link: DeskLiveness;
  /** The desk's Stop all, as this machine holds it. */
  private readonly stop: DeskStopAll;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** The outbox to the desk, one pass at a time (drain.ts). */
  private readonly drain = new SingleFlight(
    async () => void (await drainOutbox(this.sql, this.ports.db, this.opts.machine)),
    () => this.closed,
    (e) => this.link.lost(e),
  );
  private drainScheduled = false;
  /** The desk's answers to this machine's cards, by sequence, one pass at a time. */
  private readonly catchUp = new SingleFlight(
    () => this.catchUpPass(),
    () => this.closed,
    (e) => this.link.lost(e),
    () => this.drainSoon(),
  );
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;
  private offEvents: (() => void) | null = null;
  readonly outcomes: AnswerOutcome[] = [];
  private readonly cardListeners = new Set<() => void>();
  /** The desk's agent profiles and settings, applied to this kernel's store (policy.ts). */
  readonly policy: PolicySync;

  constructor(
    private readonly ports: DeskPorts,
    opts: DeskOptions,
  ) {
    this.opts = DeskOptionsSchema.parse(opts);
    this.link = new DeskLiveness(this.opts.silenceStopS);
    this.sql = openDeskSql(this.opts.url, this.opts.machine, this.opts.password);
    this.policy = new PolicySync(ports.kernel, ports.governance, ports.saveProfile ?? null, (e) => this.link.lost(e));
    // Joined from the first instant: what happens before the desk answers is kept in the outbox.
    ports.kernel.setDeskOutbox(true);
    setDeskJoined(ports.db, true); // and the store's triggers (chains, holds, tasks, run starts: migration 009)
    this.stop = new DeskStopAll(ports.kernel, ports.governance);
    if (ports.governance) ports.governance.deskStop = () => this.stop.engaged || this.silent();
  }

  /** Connect, join, listen, and keep the heartbeat; a desk that is down now is retried on every beat. */
  async start(): Promise<void> {
    this.offEvents = this.ports.kernel.on(() => this.drainSoon());
    this.timer = setInterval(() => void this.beat(), this.opts.heartbeatMs);
    this.timer.unref?.();
    await this.beat();
  }

  /** Governed hops stop while the desk has been silent longer than silenceStopS. */
  silent(): boolean {
    return this.link.silent();
  }

  status(): DeskStatus {
    const { connected, last_heard_at, last_error } = this.link.view();
    return { url: redactUrl(this.opts.url), machine: this.opts.machine, connected, last_heard_at, outbox_pending: outboxPending(this.ports.db), last_error };
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    try {
      if (!this.unlisten) await this.join();
      const { stopAll } = await q.heartbeat(this.sql, { machine: this.opts.machine });
      this.link.heard();
      this.stop.apply(stopAll);
      this.failedBeats = 0;
      this.drainSoon();
      this.catchUp.kick();
    } catch (e) {
      this.link.lost(e); // the next beat retries; the outbox keeps everything meanwhile
      if (++this.failedBeats % RENEW_AFTER === 0) this.renew();
    }
  }

  /**
   * A fresh pool (and LISTEN connection) after RENEW_AFTER failed beats in a row: the driver can leave a
   * connection that never writes again after its socket died mid-write (conn.ts), and waiting would not heal it.
   */
  private renew(): void {
    if (this.closed) return;
    const old = this.sql;
    this.sql = openDeskSql(this.opts.url, this.opts.machine, this.opts.password);
    this.unlisten = null; // join() listens again on the new pool
    void old.end({ timeout: 0 }).catch(() => {});
  }

  private async join(): Promise<void> {
    const v = await deskVersion(this.sql);
    const newest = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
    if (v !== newest) throw new Error(`the desk's schema is at version ${v}, this NEXUS needs ${newest}: run \`nexus desk init URL\``);
    if (!(await q.joinMachine(this.sql, { machine: this.opts.machine, instance: deskInstance(this.ports.db) }))) {
      throw new Error(`the desk already has a machine named ${this.opts.machine} (another data dir, or another role): choose another --machine`);
    }
    // onlisten runs on every (re)connect of the LISTEN connection: NOTIFY has no replay, so catch up then.
    const l = await this.sql.listen(
      'nexus_desk',
      (payload) => this.onNotify(payload),
      () => {
        this.link.heard();
        this.catchUp.kick();
        this.policySoon();
      },
    );
    this.unlisten = l.unlisten;
    this.policySoon(); // the desk's policy as it stands, whether or not onlisten fired for this connection
  }

  private onNotify(payload: string): void {
    this.link.heard();
    if (payload.startsWith('answer:')) this.catchUp.kick();
    else if (payload === 'policy:stop_all') void this.beat();
    else if (payload.startsWith('policy:')) this.policySoon();
    else if (payload.startsWith('card:')) for (const fn of this.cardListeners) fn();
  }

  /** The desk's cards changed (a `card:` wake-up): the window refetches the desk inbox. */
  onCards(fn: () => void): () => void {
    this.cardListeners.add(fn);
    return () => void this.cardListeners.delete(fn);
  }

  /** Stop all (or Resume) for the whole desk: recorded at the desk, every machine acts at its next beat or wake-up. */
  async setStopAll(on: boolean): Promise<void> {
    await q.setStopAll(this.sql, { on });
    this.stop.apply(on);
  }

  private policySoon(): void {
    if (!this.closed)
      void this.policy.soon(
        () => this.sql,
        () => this.closed,
      );
  }

  /** Publish this machine's agent profiles and settings as its person (the database refuses a non-member). */
  async pushPolicy(): Promise<string[]> {
    if (!this.opts.person) throw new Error('this machine has no desk person: policy is published by a person (--desk-person), a member of nexus_policy');
    return this.policy.push(this.sql, this.opts.person);
  }

  /**
   * Called for every kernel event, inside the hot path: it only schedules. The drain's own SQLite read runs on a
   * later turn, once for all the changes of this one.
   */
  private drainSoon(): void {
    if (this.closed || this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain.kick();
    });
  }

  /** Every answer the desk holds past the last one applied here, in pages. */
  private async catchUpPass(): Promise<void> {
    for (;;) {
      const got = await q.answersSince(this.sql, { machine: this.opts.machine, after: answersSeen(this.ports.db) });
      if (this.closed || !this.ports.kernel.isOpen) return;
      for (const a of got) this.outcomes.push(applyAnswer(this.ports.kernel, this.ports.db, a));
      if (got.length < 500) return;
    }
  }

  /** Answer any card of the desk as this machine's person; the owner applies it (first answer wins). */
  answer(card_id: string, verdict: 'approve' | 'deny', reason: string | null = null): Promise<{ answer_id: number; machine: string }> {
    return answerCard(this.sql, this.opts, { card_id, verdict, reason });
  }

  /** The same, then the outcome its owner reported within `waitMs` (answering.ts). */
  answerAndWait(card_id: string, verdict: 'approve' | 'deny', reason: string | null, waitMs = 3000) {
    return answerAndWait(this.sql, this.opts, { card_id, verdict, reason }, waitMs);
  }

  /** The whole desk's runs, chains, holds or tasks from the record (newest first). */
  objects(view: q.RecordView, limit = 200): Promise<q.DeskObject[]> {
    return q.deskObjects(this.sql, { view, limit });
  }

  inbox(limit = 100): Promise<q.DeskCard[]> {
    return q.deskInbox(this.sql, { person: this.opts.person, limit });
  }

  /** Wait until everything this kernel wrote so far is at the desk (tests, `nexus desk leave`). */
  async flush(): Promise<void> {
    await this.drain.current;
    await drainOutbox(this.sql, this.ports.db, this.opts.machine);
  }

  async leave(): Promise<void> {
    await this.flush();
    await q.leaveMachine(this.sql, { machine: this.opts.machine });
    await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.offEvents?.();
    await Promise.allSettled([this.drain.current, this.catchUp.current, this.policy.idle]);
    await this.sql.end({ timeout: 1 });
  }
}
