// What a gate decision causes (a hold's card, inbox and chains events, the Recent chains entry, the hold's
// 24 h timer) is seen only once the decision is durable: a second SQLite connection, opened on the same file
// by a listener, already reads the hold, the card and the hop; and a decision whose transaction rolls back
// leaves nothing behind, not even in memory. Through the REAL kernel and the real on-disk store (WAL).
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { saveAgent } from '../agents/profiles.js';
import { ManualClock } from '../kernel/clock.js';
import { addMember, beginChain, bindMemberRun } from '../store/queries/chains.js';
import { getHold } from '../store/queries/holds.js';
import { chainHopFloor } from '../store/queries/hops.js';
import { recipientPosition, starterPosition } from '../../shared/orchestration/chain.js';
import { openGate, testNexus, type TestNexus } from '../../test/support/nexus.js';
import type { NexusEvent } from '../../shared/api/index.js';
import type { Run } from '../kernel/types.js';

let open: TestNexus[] = [];
let readers: Database.Database[] = [];
afterEach(async () => {
  for (const r of readers) r.close();
  for (const t of open) await t.close();
  open = [];
  readers = [];
});

const start = async (clock = new ManualClock(Date.now())) => {
  const t = await testNexus({ modules: { governance: true }, clock });
  open.push(t);
  for (const name of ['lead', 'mid', 'leaf']) {
    saveAgent(t.nexus.kernel, { name, model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }, mode: 'bypass' });
  }
  return { t, clock };
};

/** lead → mid, laid out as a hand-off lays it out (hop 1); mid's model rows are governed hops. */
function midOfChain(t: TestNexus): { mid: Run; chain_id: string } {
  const k = t.nexus.kernel;
  const lead = k.createRun({ agent: 'lead', mode: 'bypass' });
  const now = k.clock.now();
  const chain_id = beginChain(t.gov.db, { starter: 'lead', starterRunId: lead.id, recipient: 'mid', now }).id;
  t.gov.recent.recordHop(chain_id, { hop: 1, agent: 'lead', action: 'delegate_task', target: 'mid', verdict: 'allowed' });
  addMember(t.gov.db, { handoff_row_id: 'row_handoff', chain_id, position: recipientPosition(starterPosition('lead'), 'mid'), now });
  const mid = k.createRun({ agent: 'mid', mode: 'bypass', chain_id, parent: { run_id: lead.id, row_id: 'row_handoff' } });
  bindMemberRun(t.gov.db, 'row_handoff', mid.id);
  return { mid, chain_id };
}

/** A second connection to the same database file: it reads only what has been committed. */
function secondConnection(t: TestNexus): Database.Database {
  const db = new Database(join(t.dataDir, 'nexus.db'), { fileMustExist: true });
  readers.push(db);
  return db;
}

const bash = (command: string) => ({ tool: 'bash', input: { command }, origin: 'model' as const });
const sc = (r: { result: { structuredContent?: Record<string, unknown> } | null }) => r.result?.structuredContent ?? {};

describe('a gate decision is seen only once it is durable', () => {
  it('a listener reading through a second connection finds the hold, its card and the hop already committed', async () => {
    const { t } = await start();
    await openGate(t, ['lead']);
    const { mid, chain_id } = midOfChain(t);
    const other = secondConnection(t);
    const holdStatus = other.prepare('SELECT status FROM hop_holds WHERE request_id = ?').pluck();
    const cardStatus = other.prepare('SELECT status FROM inbox WHERE id = ?').pluck();
    const rowState = other.prepare('SELECT state FROM rows WHERE id = ?').pluck();
    const seen: string[] = [];
    const wrong: string[] = [];
    const check = (what: string, got: unknown, want: unknown) => {
      seen.push(what);
      if (got !== want) wrong.push(`${what}: the other connection read ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    };
    t.nexus.kernel.on((e: NexusEvent) => {
      if (e.type === 'work_available' && e.kind === 'orchestration') {
        check(`hold ${e.item_id}`, holdStatus.get(e.item_id), 'pending');
        check(`card ${e.item_id}`, cardStatus.get(e.item_id), 'pending');
      }
      if (e.type === 'inbox_changed') {
        for (const i of e.added ?? []) check(`added card ${i.id}`, cardStatus.get(i.id), 'pending');
        for (const r of e.removed ?? []) check(`removed card ${r.id}`, cardStatus.get(r.id), r.status);
      }
      if (e.type === 'chains_changed') {
        const chain = t.gov.recent.list().find((c) => c.chain_id === chain_id);
        const last = chain?.hops[chain.hops.length - 1];
        if (!last) return;
        // The hop's number is durable on its row (or the chain's counter): a restart would go on after it.
        check(`hop ${last.hop} counted`, (chainHopFloor(other, chain_id) ?? 0) >= last.hop, true);
        if (last.verdict === 'awaiting_approval') check(`hop ${last.hop} hold`, holdStatus.get(last.request_id), 'pending');
      }
      if (e.type === 'run_event' && e.event === 'row_state') {
        const { row_id, state } = e.data as { row_id: string; state: string };
        if (state === 'failed') check(`row ${row_id} ended`, rowState.get(row_id), 'failed');
      }
    });

    // A fan: the first call is held (a new hold and its card), the second, identical, finds the same hold.
    const [held, again] = t.nexus.kernel.submitRows(mid.id, [bash('echo one'), bash('echo one')]);
    const request_id = sc(held).request_id as string;
    expect(sc(held)).toMatchObject({ code: 'hop_held', hop: 2 });
    expect(sc(again)).toMatchObject({ code: 'hop_held', request_id });
    expect(seen).toEqual(expect.arrayContaining([`hold ${request_id}`, `card ${request_id}`, `added card ${request_id}`, 'hop 2 counted', 'hop 2 hold']));

    // Per-hop approval switched off: the identical call cancels the pending hold (its card closes) and proceeds.
    await t.call('settingsSet', { key: 'orchestration.perHopApproval', value: false });
    const through = t.nexus.kernel.submitRow(mid.id, bash('echo one'));
    expect(through.state).toBe('running');
    expect(seen).toContain(`removed card ${request_id}`);
    expect(holdStatus.get(request_id)).toBe('canceled');

    // A denial: the hop is recorded and the row ended before anyone hears of it.
    await t.call('settingsSet', { key: 'orchestration.enabled', value: false });
    const denied = t.nexus.kernel.submitRow(mid.id, bash('echo two'));
    expect(sc(denied)).toMatchObject({ code: 'orchestration_disabled', hop: 3 });
    expect(seen).toEqual(expect.arrayContaining(['hop 3 counted', `row ${denied.id} ended`]));
    expect(wrong).toEqual([]);
    await t.nexus.kernel.waitRow(through.id);
  });

  it('a decision whose transaction rolls back leaves no card, no event, no Recent chains entry and no timer', async () => {
    for (const perHopApproval of [true, false]) {
      const { t, clock } = await start();
      await openGate(t, ['lead'], perHopApproval);
      const { mid, chain_id } = midOfChain(t);
      // The fan's second row cannot be written: its insert fails after the gate decided the first.
      t.gov.db.exec(
        `CREATE TEMP TRIGGER fail_second_row BEFORE INSERT ON rows WHEN NEW.input_json LIKE '%explode%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      );
      const events: NexusEvent[] = [];
      t.nexus.kernel.on((e) => events.push(e));
      const timers = clock.pending();
      const gateCalls: string[] = [];
      const gate = t.gov.gate.bind(t.gov);
      t.nexus.kernel.setHopGate((call) => {
        gateCalls.push(call.row_id);
        return gate(call);
      });

      expect(() => t.nexus.kernel.submitRows(mid.id, [bash('echo one'), bash('explode')])).toThrow(/injected failure/);
      expect(gateCalls).toHaveLength(1); // the gate did decide the first row
      expect(events).toEqual([]);
      expect(t.gov.recent.list()).toEqual([]);
      expect(clock.pending()).toBe(timers);
      expect(t.nexus.kernel.inbox.pending()).toEqual([]);
      expect(t.gov.db.prepare('SELECT COUNT(*) FROM hop_holds').pluck().get()).toBe(0);
      expect(chainHopFloor(t.gov.db, chain_id)).toBe(1);

      // The same call once the store takes it again: hop 2 (the rolled-back one never happened), seen whole.
      t.gov.db.exec('DROP TRIGGER fail_second_row');
      const row = t.nexus.kernel.submitRow(mid.id, bash('echo one'));
      const [chain] = t.gov.recent.list();
      expect(chain.hops.map((h) => [h.hop, h.verdict])).toEqual([
        [1, 'allowed'],
        [2, perHopApproval ? 'awaiting_approval' : 'allowed'],
      ]);
      expect(events.some((e) => e.type === 'chains_changed')).toBe(true);
      if (perHopApproval) {
        expect(sc(row)).toMatchObject({ code: 'hop_held', hop: 2 });
        expect(t.nexus.kernel.inbox.pending().map((i) => i.id)).toEqual([sc(row).request_id]);
        expect(events.filter((e) => e.type === 'work_available')).toHaveLength(1);
        expect(clock.pending()).toBe(timers + 1);
      } else {
        expect(row.state).toBe('running');
        await t.nexus.kernel.waitRow(row.id);
      }
    }
  });

  it('a hold that ends outside the gate (expired) ends together with its card, or not at all', async () => {
    const { t } = await start();
    await openGate(t, ['lead']);
    const { mid } = midOfChain(t);
    const request_id = sc(t.nexus.kernel.submitRow(mid.id, bash('echo one'))).request_id as string;
    const other = secondConnection(t);
    const both = () =>
      other.prepare('SELECT h.status AS hold, i.status AS card FROM hop_holds h JOIN inbox i ON i.id = h.request_id WHERE h.request_id = ?').get(request_id);
    const heard: unknown[] = [];
    t.nexus.kernel.on((e) => {
      if (e.type === 'inbox_changed' && e.removed?.some((r) => r.id === request_id)) heard.push(both());
    });
    // The card cannot be closed: the hold's expiry rolls back with it (no expired hold behind a pending card).
    t.gov.db.exec(`CREATE TEMP TRIGGER card_stuck BEFORE UPDATE ON inbox BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    expect(() => t.gov.holds.expire(getHold(t.gov.db, request_id)!)).toThrow(/injected failure/);
    expect(both()).toEqual({ hold: 'pending', card: 'pending' });
    expect(heard).toEqual([]);
    t.gov.db.exec('DROP TRIGGER card_stuck');
    expect(t.gov.holds.expire(getHold(t.gov.db, request_id)!)).toBe(true);
    expect(heard).toEqual([{ hold: 'refused', card: 'expired' }]);
  });

  it('the gate returns what it decided and shows nothing until the kernel runs its after', async () => {
    const { t, clock } = await start();
    await openGate(t, ['lead']);
    const { mid } = midOfChain(t);
    const events: NexusEvent[] = [];
    t.nexus.kernel.on((e) => events.push(e));
    const timers = clock.pending();
    const d = t.gov.gate({ run: mid, row_id: 'row_direct', wire_tool: 'bash', tool: 'bash', runner: null, input: { command: 'echo hi' }, origin: 'model' });
    expect(d.proceed).toBe(false);
    expect(typeof d.after).toBe('function');
    expect(events).toEqual([]);
    expect(t.gov.recent.list()).toEqual([]);
    expect(clock.pending()).toBe(timers);
    d.after!();
    expect(events.map((e) => e.type)).toEqual(['chains_changed', 'work_available', 'inbox_changed']);
    expect(t.gov.recent.list()[0].hops[1]).toMatchObject({ hop: 2, verdict: 'awaiting_approval' });
    expect(clock.pending()).toBe(timers + 1);
  });
});
