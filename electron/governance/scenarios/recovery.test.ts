// Stops and restarts in the middle of governed work: a stopped run's holds close; chain state, holds and
// tasks survive a restart as the seed and DESIGN §7 require (nothing lost, nothing re-run by itself).
import { afterEach, describe, expect, it } from 'vitest';
import { bash, delegate, last, queue, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import type { TestNexus } from '../../../test/support/nexus.js';
import type { InboxItem } from '../../../shared/api/kernel.js';

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

  it('a pending hold survives a restart and is still answered (the answer re-opens the held run)', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'waiting' }, { toolCalls: [bash('echo hi')] }, { text: 'mid done' }]),
    });
    await s.open(['lead'], true);
    s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    const midRun = await s.until('mid waiting', () => s!.waits('mid') >= 1 && s!.runsOf('mid')[0]);
    after = await s.reopen();
    const cards = await after.call<InboxItem[]>('inboxList');
    expect(cards.map((c) => [c.id, c.kind, c.hop])).toEqual([[card.id, 'orchestration', 2]]);
    // The delegating call was interrupted by the restart: its task is canceled, nobody waits on it any more.
    await new Promise((r) => setTimeout(r, 50));
    expect((after.gov.db.prepare('SELECT status FROM tasks').get() as { status: string }).status).toBe('canceled');
    // The hold is still answerable; the approved retry proceeds (the approval is in the store).
    await after.call('inboxApprove', { id: card.id });
    const deadline = Date.now() + 10_000;
    while (after.nexus.kernel.listRows(midRun.id).filter((r) => r.origin === 'model' && r.state === 'succeeded').length < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(
      after.nexus.kernel
        .listRows(midRun.id)
        .filter((r) => r.origin === 'model')
        .map((r) => r.state),
    ).toEqual(['failed', 'succeeded']);
    expect(structuredOf(last(s.requests('mid')[1]))).toMatchObject({ code: 'hop_held', request_id: card.id });
  });
});
