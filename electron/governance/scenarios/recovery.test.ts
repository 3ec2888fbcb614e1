// Stops and restarts in the middle of governed work: a stopped run's holds close; chain state, holds and
// tasks survive a restart as the seed and DESIGN §7 require (nothing lost, nothing re-run by itself).
import { afterEach, describe, expect, it } from 'vitest';
import { bash, delegate, last, queue, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import type { TestNexus } from '../../../test/support/nexus.js';
import type { InboxItem } from '../../../shared/api/inbox.js';

let s: Scenario | null = null;
let after: TestNexus | null = null;
afterEach(async () => {
  await after?.close();
  await s?.cleanup();
  s = null;
  after = null;
});

describe('stops and restarts', () => {
  it("stopping a held agent's run closes its orchestration card; nothing asks about a stopped run", async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'waiting' }]),
    });
    await s.open(['lead'], true);
    const lead = s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    await s.call('runsStop', { id: lead.id });
    const midRun = s.runsOf('mid')[0];
    await s.until('mid stopped', () => s!.nexus.kernel.getRun(midRun.id)?.status !== 'running' && s!.nexus.kernel.inbox.pending().length === 0);
    expect(await s.call<InboxItem[]>('inboxList')).toEqual([]);
    await expect(s.call('inboxApprove', { id: card.id })).rejects.toThrow(/conflict/);
    const task = (s.gov.db.prepare('SELECT status FROM tasks').get() as { status: string }).status;
    expect(task).toBe('canceled');
  });

  it('a restart that cancels a delegated task closes its pending holds with it: the card is gone, approving says it closed with its task, nothing works for nobody', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'waiting' }, { toolCalls: [bash('echo hi')] }, { text: 'mid done' }]),
    });
    await s.open(['lead'], true);
    s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    const midRun = await s.until('mid waiting', () => s!.waits('mid') >= 1 && s!.runsOf('mid')[0]);
    expect(structuredOf(last(s.requests('mid')[1]))).toMatchObject({ code: 'hop_held', request_id: card.id });
    // A real kernel restart on the same data dir: the delegating call was interrupted, so its task is canceled.
    after = await s.reopen();
    const a = after;
    const closed = async () =>
      (a.gov.db.prepare('SELECT status, reason FROM hop_holds WHERE request_id = ?').get(card.id) as { status: string; reason: string }) ?? null;
    const deadline = Date.now() + 10_000;
    while ((await closed()).status === 'pending' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect((a.gov.db.prepare('SELECT status FROM tasks').get() as { status: string }).status).toBe('canceled');
    expect(await closed()).toMatchObject({ status: 'canceled', reason: expect.stringMatching(/^task task_\w+ was canceled/) });
    expect(await a.call<InboxItem[]>('inboxList')).toEqual([]);
    await expect(a.call('inboxApprove', { id: card.id })).rejects.toThrow(
      /no longer pending \(it is canceled: it was closed with its task: task task_\w+ was canceled/,
    );
    // Recent chains is of this app run (empty after a restart); the hop row stays refused, never approved.
    await new Promise((r) => setTimeout(r, 200));
    expect(a.nexus.kernel.getRun(midRun.id)!.status).not.toBe('running');
    expect(a.nexus.kernel.listRows(midRun.id).filter((r) => r.origin === 'model' && r.state === 'succeeded')).toEqual([]);
  });
});
