// Delegation is a chain hop, and finishing is an evidence-gated step (seed 003): the acceptance check runs as
// a kernel row in the recipient's workspace, every run is recorded as evidence, a failed check goes back to
// the recipient as a continuation, repeated refusals escalate to a visible failure.
import { afterEach, describe, expect, it } from 'vitest';
import { delegate, last, queue, scenario, structuredOf, type Scenario } from '../../../test/support/scenarios.js';
import type { InboxItem } from '../../../shared/api/inbox.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
// Fails on the first two runs, passes on the third (a counter in the recipient's workspace).
const THIRD_TIME = 'n=$(cat .attempts 2>/dev/null || echo 0); n=$((n+1)); echo $n > .attempts; echo "attempt $n"; [ "$n" -ge 3 ]';

interface TaskJson {
  id: string;
  status: string;
  refusals: number;
  answer: string | null;
  evidence: Array<{ command: string; exit_code: number | null; passed: boolean; output: string; at: string; duration_ms: number }>;
}

describe('delegate_task', () => {
  it('a check that fails twice then passes: two refusals reach the recipient, three evidence records, the answer returns to the delegator', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'Write the report.', THIRD_TIME)] }, { text: 'lead done' }]),
      mid: queue([{ text: 'done (1)' }, { text: 'done (2)' }, { text: 'done (3)' }]),
    });
    const run = s.start('lead');
    const ended = await s.ended(run.id);
    expect(ended.status).toBe('succeeded');
    const mid = s.requests('mid');
    expect(mid).toHaveLength(3);
    expect(mid[1].userText).toMatch(/acceptance check .* exited 1 \(refusal 1 of 3\)/s);
    expect(mid[1].userText).toContain('attempt 1');
    expect(mid[2].userText).toContain('attempt 2');
    const result = last(s.requests('lead')[1]);
    expect(result.split('\n')[0]).toBe('done (3)');
    const sc = structuredOf(result)!;
    expect(sc).toMatchObject({ status: 'completed', recipient: 'mid' });
    const task = await s.call<TaskJson>('tasksShow', { id: sc.task_id });
    expect(task).toMatchObject({ status: 'completed', refusals: 2, answer: 'done (3)' });
    expect(task.evidence.map((e) => [e.command, e.exit_code, e.passed])).toEqual([
      [THIRD_TIME, 1, false],
      [THIRD_TIME, 1, false],
      [THIRD_TIME, 0, true],
    ]);
    expect(task.evidence.map((e) => e.output.trim())).toEqual(['attempt 1', 'attempt 2', 'attempt 3']);
    for (const e of task.evidence) expect(Date.parse(e.at)).not.toBeNaN();
    // The check ran as a kernel row, bash, in the recipient's workspace.
    const checks = s.rowsOf('mid').filter((r) => r.origin === 'kernel' && r.tool === 'bash');
    expect(checks).toHaveLength(3);
    // The delegate_task row completed only then, with the answer.
    const row = s.rowsOf('lead').find((r) => r.tool === 'delegate_task')!;
    expect(row.state).toBe('succeeded');
  });

  it('escalation: after three refused answers the task fails visibly (an attention card) and the delegator gets the failure with the evidence', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'Make it pass.', 'echo nope >&2; exit 3')] }, { text: 'lead reports the failure' }]),
      mid: queue([{ text: 'try 1' }, { text: 'try 2' }, { text: 'try 3' }, { text: 'never asked' }]),
    });
    const run = s.start('lead');
    await s.ended(run.id);
    expect(s.requests('mid')).toHaveLength(3);
    const result = last(s.requests('lead')[1]);
    const sc = structuredOf(result)!;
    expect(sc).toMatchObject({ code: 'task_failed', refusals: 3 });
    expect((sc.evidence as unknown[]).length).toBe(3);
    expect(result).toMatch(/failed 3 times \(limit 3\)/);
    expect(result).toMatch(/Last output \(exit 3\):\nnope/);
    expect(s.runsOf('mid')[0].status).toBe('failed');
    const task = await s.call<TaskJson>('tasksShow', { id: sc.task_id });
    expect(task.status).toBe('failed');
    expect(task.evidence.every((e) => e.exit_code === 3 && !e.passed && e.output.includes('nope'))).toBe(true);
    const cards = (await s.call<InboxItem[]>('inboxList')).filter((c) => c.kind === 'attention');
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ agent: 'mid', tool: 'delegate_task', message: expect.stringMatching(/failed 3 times/) });
    // Abandon dismisses it.
    expect(await s.call('inboxAbandon', { id: cards[0].id })).toMatchObject({ state: 'abandoned' });
  });

  it('delegation.maxRefusals is read fresh: set to 1, the first failed check fails the task', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'x', 'false')] }, { text: 'lead done' }]),
      mid: queue([{ text: 'try 1' }, { text: 'never asked' }]),
    });
    await s.call('settingsSet', { key: 'delegation.maxRefusals', value: 1 });
    await s.ended(s.start('lead').id);
    expect(s.requests('mid')).toHaveLength(1);
    expect(structuredOf(last(s.requests('lead')[1]))).toMatchObject({ code: 'task_failed', refusals: 1 });
    // A silent check is said to be silent (the result ended in a dangling "Last output:").
    expect(last(s.requests('lead')[1]).split('\n')[0]).toMatch(/the task failed\. Last check: `false` exited 1 with no output\.$/);
  });

  it('the acceptance check is required: without it the delegator gets a clear tool error and nothing is handed on', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [{ name: 'delegate_task', input: { agent: 'mid', task: 'trust me' } }] }, { text: 'lead done' }]),
      mid: queue([{ text: 'should not run' }]),
    });
    await s.ended(s.start('lead').id);
    const text = last(s.requests('lead')[1]);
    expect(text).toMatch(/delegate_task needs "acceptance_check"/);
    expect(structuredOf(text)).toMatchObject({ code: 'invalid_input' });
    expect(s.runsOf('mid')).toHaveLength(0);
  });

  it("the check runs even when the recipient's profile limits its tools (the limit is the model's, not the kernel's)", async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'x', 'echo verified')] }, { text: 'lead done' }]),
      mid: { script: queue([{ toolCalls: [{ name: 'bash', input: { command: 'echo sneaky' } }] }, { text: 'mid done' }]), tools: ['read'] },
    });
    await s.open(['lead']);
    await s.ended(s.start('lead').id);
    expect(s.requests('mid')[0].toolNames).not.toContain('bash');
    const rows = s.rowsOf('mid');
    // The model's own bash call is not available to it; the kernel's check row runs bash.
    expect(rows.find((r) => r.origin === 'model')?.error?.code).toBe('unknown_tool');
    expect(rows.find((r) => r.origin === 'kernel' && r.tool === 'bash')?.state).toBe('succeeded');
    expect(structuredOf(last(s.requests('lead')[1]))).toMatchObject({ status: 'completed', evidence: { exit_code: 0, passed: true } });
  });

  it('an unknown recipient is a clear tool error', async () => {
    s = await scenario({ lead: queue([{ toolCalls: [delegate('ghost')] }, { text: 'lead done' }]) });
    await s.ended(s.start('lead').id);
    expect(last(s.requests('lead')[1])).toMatch(/no active agent named "ghost"/);
  });
});

describe('message_agent', () => {
  it("starts the other agent's turn on the chain and returns its answer when that turn ends", async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [{ name: 'message_agent', input: { agent: 'mid', message: 'What is 6 x 7?' } }] }, { text: 'lead done' }]),
      mid: queue([{ text: '42' }]),
    });
    await s.ended(s.start('lead').id);
    expect(s.requests('mid')[0].userText).toMatch(/Message from agent "lead":\s+What is 6 x 7\?/);
    expect(last(s.requests('lead')[1]).split('\n')[0]).toBe('42');
    expect(s.runsOf('mid')[0].chain_id).toMatch(/^chain_/);
  });
});
