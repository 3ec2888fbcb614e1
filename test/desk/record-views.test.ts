// The desk's record holds run starts and ends, chains, holds and delegated tasks with their check evidence
// (written by the store's triggers in the changing transaction: migration 009), and any desk machine reads
// the whole desk from it (`nexus runs list|chains|tasks --desk`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailable } from '../support/pg-cluster.js';
import { deskWorld, until, type DeskWorld } from '../support/desk.js';
import { harness } from '../support/kernel.js';
import { addEvidence, closeTask, insertTask, newTaskId } from '../../electron/store/queries/tasks.js';
import { beginChain, touch } from '../../electron/store/queries/chains.js';
import { outboxPending } from '../../electron/store/queries/desk-outbox.js';
import type { Db } from '../../electron/store/db.js';

let desk: DeskWorld;

function delegate(db: Db, run_id: string) {
  const now = Date.now();
  const chain = beginChain(db, { starter: 'ops-bot', starterRunId: run_id, recipient: 'fixer', now });
  touch(db, chain.id, 'tester', now + 1);
  const id = newTaskId();
  insertTask(db, {
    id,
    delegator: 'ops-bot',
    delegator_run_id: run_id,
    delegator_row_id: 'row_x',
    recipient: 'fixer',
    task: 'make the tests pass',
    check_command: 'npm test',
    check_timeout_s: 60,
    chain_id: chain.id,
    created_at: now,
  });
  addEvidence(db, id, { command: 'npm test', exit_code: 1, passed: false, output: '1 failing', duration_ms: 900, at: now + 2, row_id: null });
  addEvidence(db, id, { command: 'npm test', exit_code: 0, passed: true, output: 'all passing', duration_ms: 800, at: now + 3, row_id: null });
  closeTask(db, id, 'completed', 'done', now + 4);
  return { chain: chain.id, task: id };
}

describe.skipIf(!pgAvailable)('the whole desk from its record', () => {
  beforeAll(async () => {
    desk = await deskWorld();
  }, 60_000);
  afterAll(async () => desk?.destroy());

  it("lists machine A's runs, chains and tasks with their evidence on machine B", async () => {
    const a = await desk.machine('views-a', 'laptop_a', 'alice');
    const b = await desk.machine('views-b', 'laptop_b', 'bob');
    const row = a.park();
    const { chain, task } = delegate(a.nexus.db, row.run_id);
    a.nexus.kernel.stopRun(row.run_id);

    const runs = await until(
      async () => {
        const all = await b.desk.objects('runs');
        return all.find((r) => r.id === row.run_id && r.state.status === 'canceled');
      },
      10_000,
      "A's run, ended, on B",
    );
    expect(runs).toMatchObject({ machine: a.name, state: { agent: 'ops-bot', mode: 'ask', status: 'canceled' } });
    const chains = await b.desk.objects('chains');
    expect(chains.find((c) => c.id === chain)).toMatchObject({ machine: a.name, state: { starter: 'ops-bot', touched: ['ops-bot', 'fixer', 'tester'] } });
    const tasks = await b.desk.objects('tasks');
    const t = tasks.find((x) => x.id === task);
    expect(t).toMatchObject({ machine: a.name, state: { status: 'completed', recipient: 'fixer', check_command: 'npm test' } });
    expect(t?.evidence?.map((e) => e.passed)).toEqual([false, true]);
    expect(t?.evidence?.[1]).toMatchObject({ exit_code: 0, output: 'all passing' });
  }, 60_000);

  it('writes nothing to the outbox for chains, tasks and evidence without a desk', async () => {
    const h = await harness({ modules: { governance: true } });
    try {
      const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
      delegate(h.nexus.db, run.id);
      expect(outboxPending(h.nexus.db)).toBe(0);
    } finally {
      await h.cleanup();
    }
  });
});
