// An orchestration hold nobody answers is not open for ever: it carries the same 24 h clock as a parked row.
// On expiry the hop is refused with the expiry sentence, the card closes as expired, the held run's task
// fails visibly (an attention card), its delegator's delegate_task reads the failure, and the held agent is
// told. Real kernel (turns + governance), scripted models over real HTTP, a ManualClock for the 24 h.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../../test/support/scripted-model.js';
import { bash, delegate, last, queue, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import { ManualClock } from '../../kernel/clock.js';
import { getHold } from '../../store/queries/holds.js';
import { APPROVAL_EXPIRED_TEXT, PARK_DURATION_MS } from '../../../shared/types.js';
import type { InboxItem } from '../../../shared/api/inbox.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const EXPIRED = /Nobody approved this tool call before it expired/;
const mid = (req: ScriptedRequest) =>
  /expired/.test(req.userText)
    ? { text: 'mid: my hop expired' }
    : req.toolResults.length
      ? { text: 'waiting for a person' }
      : { toolCalls: [bash('echo late')] };

describe('an unanswered hold expires after 24 h (seed 003 "nothing is left open waiting on you")', () => {
  it('the held run stays running (not succeeded) while it waits; at 24 h the hop is refused, the task fails visibly, the delegator gets the failure, the recipient is told', async () => {
    const clock = new ManualClock(Date.now());
    s = await scenario({ lead: queue([{ toolCalls: [delegate('mid', 'RUN', 'true')] }, { text: 'lead done' }]), mid }, { clock });
    await s.call('entitlementsImport', { token: await s.account.token({ exp: Math.floor(Date.now() / 1000) + 30 * 86400 }) });
    await s.call('settingsSet', { key: 'orchestration.enabled', value: true });
    await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
    const run = s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    expect(Date.parse(card.expires_at!)).toBe(clock.now() + PARK_DURATION_MS);
    await s.until('mid to wait', () => s!.requests('mid').length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    const [midRun] = s.runsOf('mid');
    expect(midRun!.status).toBe('running'); // its task is open: it does not read succeeded
    const listed = await s.call<Array<{ id: string; status: string; waiting_on?: unknown[] }>>('runsList');
    expect(listed.find((r) => r.id === midRun!.id)!.waiting_on).toEqual([
      expect.objectContaining({ request_id: card.id, hop: 2, agent: 'mid', tool: 'bash', target: 'echo late' }),
    ]);
    expect(listed.find((r) => r.id === run.id)!.waiting_on).toEqual([expect.objectContaining({ request_id: card.id })]);

    clock.advance(PARK_DURATION_MS - 1000);
    expect(getHold(s.gov.db, card.id)!.status).toBe('pending');
    clock.advance(1000);
    expect(getHold(s.gov.db, card.id)).toMatchObject({ status: 'refused', reason: APPROVAL_EXPIRED_TEXT, answered_by: null });
    expect(s.nexus.kernel.inbox.get(card.id)!.status).toBe('expired');
    const ended = await s.ended(run.id);
    expect(ended.status).toBe('succeeded');
    // The delegator read the failure, with the expiry sentence and the hold it waited on.
    const read = last(s.requests('lead')[1]!);
    expect(read).toMatch(EXPIRED);
    expect(structuredOf(read)).toMatchObject({ code: 'approval_expired', request_id: card.id, hop: 2 });
    // The task failed visibly; the recipient was told and its run ended.
    const [task] = await s.call<Array<{ state: string }>>('tasksList');
    expect(task!.state).toBe('failed');
    const attention = (await s.call<InboxItem[]>('inboxList')).find((c) => c.kind === 'attention');
    expect(attention?.message).toMatch(EXPIRED);
    await s.until('mid to be told', () => s!.requests('mid').some((r) => EXPIRED.test(r.userText)));
    await s.until('mid to end', () => s!.runsOf('mid')[0]!.status !== 'running');
    expect(s.runsOf('mid')[0]!.final_answer).toBe('mid: my hop expired');
    const chains = await s.call<Array<{ hops: Array<{ hop: number; verdict: string }> }>>('chainsList');
    expect(chains[0]!.hops[1]).toMatchObject({ hop: 2, verdict: 'refused', code: 'approval_expired' });
  });

  it('answered in time, the timer is disarmed: nothing expires later', async () => {
    const clock = new ManualClock(Date.now());
    s = await scenario(
      {
        lead: queue([{ toolCalls: [delegate('mid', 'RUN', 'true')] }, { text: 'lead done' }]),
        mid: (req: ScriptedRequest) => (/APPROVED/.test(req.userText) ? { toolCalls: [bash('echo late')] } : mid(req)),
      },
      { clock },
    );
    await s.call('entitlementsImport', { token: await s.account.token({ exp: Math.floor(Date.now() / 1000) + 30 * 86400 }) });
    await s.call('settingsSet', { key: 'orchestration.enabled', value: true });
    await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
    const run = s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    await s.call('inboxApprove', { id: card.id });
    expect((await s.ended(run.id)).status).toBe('succeeded');
    clock.advance(2 * PARK_DURATION_MS);
    expect(getHold(s.gov.db, card.id)!.status).toBe('consumed');
    expect((await s.call<Array<{ state: string }>>('tasksList'))[0]!.state).toBe('completed');
  });
});

describe('a hold whose 24 h passed while NEXUS was closed', () => {
  it('expires at the next start: refused with the expiry sentence, its card closed as expired, its task failed visibly, nothing left in flight', async () => {
    const clock = new ManualClock(Date.now());
    s = await scenario({ lead: queue([{ toolCalls: [delegate('mid', 'RUN', 'true')] }, { text: 'lead done' }, { text: 'lead again' }]), mid }, { clock });
    await s.call('entitlementsImport', { token: await s.account.token({ exp: Math.floor(Date.now() / 1000) + 30 * 86400 }) });
    await s.call('settingsSet', { key: 'orchestration.enabled', value: true });
    await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['lead'] });
    s.start('lead');
    const card = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    await s.until('mid to wait', () => s!.requests('mid').length >= 2);
    clock.set(clock.now() + PARK_DURATION_MS + 60_000);
    const again = await s.reopen();
    try {
      await s.until('the hold to expire', () => getHold(again.gov.db, card.id)!.status !== 'pending');
      expect(getHold(again.gov.db, card.id)).toMatchObject({ status: 'refused', reason: APPROVAL_EXPIRED_TEXT });
      expect(again.nexus.kernel.inbox.get(card.id)!.status).toBe('expired');
      // The hold expired before the interrupted delegation was settled: the task failed with the expiry sentence.
      expect((await again.call<Array<{ state: string }>>('tasksList'))[0]!.state).toBe('failed');
      expect((await again.call<InboxItem[]>('inboxList')).map((c) => [c.kind, EXPIRED.test(c.message ?? '')])).toEqual([['attention', true]]);
      await s.until(
        'nothing in flight',
        () => (again.nexus.db.prepare("SELECT COUNT(*) AS n FROM runs WHERE status = 'running'").get() as { n: number }).n === 0,
      );
    } finally {
      await again.close();
    }
  });
});
