// Rounds and fans through the real kernel, store and stage, with the scripted model on real HTTP:
// granted, parked-then-approved and denied calls in one fan; a park that expires; stop mid-request.
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_EXPIRED_TEXT, PARK_DURATION_MS } from '../../shared/types.js';
import { turnsHarness, type TurnsHarness } from '../../test/support/turns.js';

let h: TurnsHarness;
afterEach(async () => h?.cleanup());

const RULES = [
  { tool: 'bash', path: 'command', match: 'echo granted*', verdict: 'allow' as const },
  { tool: 'bash', path: 'command', match: '*rm -rf*', verdict: 'deny' as const, reason: 'deleting is for people' },
];

describe('rounds and fans', () => {
  it('a fan: one call granted, one parked and approved through the API, one denied; the next round reads all three', async () => {
    h = await turnsHarness({
      script: [
        {
          text: 'Three things at once.',
          toolCalls: [
            { name: 'bash', input: { command: 'echo granted-1' } },
            { name: 'bash', input: { command: 'echo parked-2' } },
            { name: 'bash', input: { command: 'rm -rf ./scratch' } },
          ],
        },
        { text: 'All three came back.' },
      ],
    });
    h.agent({ name: 'fanner', mode: 'ask', approval_rules: RULES });
    const start = await h.api('runsStart', { agent: 'fanner', prompt: 'do three things' });
    expect(start.ok).toBe(true);
    const runId = start.value.id as string;
    const parked = await h.row(runId, (r) => r.state === 'needs_approval');
    expect(parked.input).toEqual({ command: 'echo parked-2' });
    const granted = await h.row(runId, (r) => r.state === 'succeeded');
    expect(granted).toMatchObject({ origin: 'model', granted_by: 'rule', round: 1 });
    const denied = await h.row(runId, (r) => r.state === 'failed');
    expect(denied.error).toMatchObject({ code: 'approval_denied', detail: 'deleting is for people' });
    // The fan is not over while a row is parked: the model has been asked exactly once.
    expect(h.model.requests).toHaveLength(1);
    const inbox = await h.api('inboxList', {});
    expect(inbox.value.map((i: { id: string; kind: string }) => [i.id, i.kind])).toEqual([[parked.id, 'autonomy']]);
    expect((await h.api('inboxApprove', { id: parked.id })).ok).toBe(true);

    const run = await h.ended(runId);
    expect(run).toMatchObject({ status: 'succeeded', final_answer: 'All three came back.' });
    const second = h.model.requests[1]!;
    expect(second.toolResults.map((r) => r.text.split('\n')[0])).toEqual([
      'granted-1',
      'parked-2',
      'The approval stage denied this tool call: deleting is for people',
    ]);
    // What a model reads: the text, then the structuredContent JSON on a line of its own (DESIGN §3).
    expect(JSON.parse(second.toolResults[2]!.text.split('\n')[1]!)).toEqual({ code: 'approval_denied', detail: 'deleting is for people' });
    // The calls the model made pair with the results it reads.
    const calls = second.messages.find((m) => m.role === 'assistant')!.toolCalls!;
    expect(second.toolResults.map((r) => r.id)).toEqual(calls.map((c) => c.id));

    const shown = await h.api('runsShow', { id: runId });
    expect(shown.value.rows.map((r: { state: string }) => r.state)).toEqual(['succeeded', 'succeeded', 'failed']);
    expect(shown.value.messages?.map((m) => (m as { role: string }).role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(shown.value.events?.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['run_created', 'approval_required', 'approval_granted', 'model_reply', 'fan_ended']),
    );
  });

  it('granted rows of a fan run in parallel: the first call waits for a file only the second call creates', async () => {
    h = await turnsHarness({
      script: [
        {
          toolCalls: [
            {
              name: 'bash',
              input: { command: 'for i in $(seq 200); do [ -f second.flag ] && echo saw-second && exit 0; sleep 0.05; done; exit 1', timeout_s: 30 },
            },
            { name: 'bash', input: { command: 'touch second.flag && echo made-it' } },
          ],
        },
        { text: 'both ran' },
      ],
    });
    h.agent({ name: 'parallel' });
    const ended = await h.ended(h.turns.startTurn({ agent: 'parallel', prompt: 'go' }).id, 30_000);
    expect(ended.status).toBe('succeeded');
    expect(h.model.requests[1]!.toolResults.map((r) => r.text.split('\n')[0])).toEqual(['saw-second', 'made-it']);
  });

  it(`a parked call that expires: the next round reads exactly "${APPROVAL_EXPIRED_TEXT}"`, async () => {
    h = await turnsHarness({
      script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo needs-a-person' } }] }, { text: 'Nobody answered, so I stopped.' }],
    });
    h.agent({ name: 'waiter', mode: 'ask' });
    const run = h.turns.startTurn({ agent: 'waiter', prompt: 'try it' });
    const parked = await h.row(run.id, (r) => r.state === 'needs_approval');
    h.clock.advance(PARK_DURATION_MS - 1);
    expect(h.nexus.kernel.getRow(parked.id)!.state).toBe('needs_approval');
    h.clock.advance(1);
    expect(h.nexus.kernel.getRow(parked.id)).toMatchObject({ state: 'timed_out', error: { code: 'approval_expired' } });
    const ended = await h.ended(run.id);
    expect(ended.status).toBe('succeeded');
    expect(h.model.requests[1]!.toolResults).toEqual([{ id: expect.any(String), text: APPROVAL_EXPIRED_TEXT }]);
  });

  it('a person who denies a parked call: the model reads the denial and the reason', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'write', input: { path: 'a.txt', content: 'x' } }] }, { text: 'Understood.' }] });
    h.agent({ name: 'writer', mode: 'ask' });
    const run = h.turns.startTurn({ agent: 'writer', prompt: 'write a file' });
    const parked = await h.row(run.id, (r) => r.state === 'needs_approval');
    expect((await h.api('inboxDeny', { id: parked.id, reason: 'not today' })).ok).toBe(true);
    await h.ended(run.id);
    expect(h.model.requests[1]!.toolResults[0]!.text).toMatch(/^A person denied this tool call: not today/);
  });

  it('stopping a run aborts the in-flight model request and cancels nothing recorded', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo first' } }] }, { fault: 'hang' }] });
    h.agent({ name: 'slow', mode: 'bypass' });
    const run = h.turns.startTurn({ agent: 'slow', prompt: 'go' });
    await h.model.waitForRequests(2);
    const stopped = await h.api('runsStop', { id: run.id });
    expect(stopped.value.status).toBe('canceled');
    const ended = await h.ended(run.id, 5000);
    expect(ended.status).toBe('canceled');
    expect(h.nexus.kernel.listRows(run.id).map((r) => r.state)).toEqual(['succeeded']);
    expect(h.turns.messages(run.id).map((m) => m.message.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('a reply without tool calls ends the turn; continueRun re-opens it for another turn', async () => {
    h = await turnsHarness({ script: [{ text: 'first answer' }, { text: 'second answer' }] });
    h.agent({ name: 'chatty' });
    const run = h.turns.startTurn({ agent: 'chatty', prompt: 'hello' });
    expect((await h.ended(run.id)).final_answer).toBe('first answer');
    h.turns.continueRun(run.id, 'and once more');
    await h.model.waitForRequests(2);
    const again = await h.ended(run.id);
    expect(again).toMatchObject({ status: 'succeeded', final_answer: 'second answer' });
    expect(h.model.requests[1]!.userText).toBe('and once more');
    const cont = h.nexus.kernel.listRows(run.id).find((r) => r.tool === 'continuation')!;
    expect(cont).toMatchObject({ origin: 'kernel', state: 'succeeded', granted_by: 'origin' });
  });

  it('the system prompt tells the agent to report an orchestration denial rather than retry', async () => {
    h = await turnsHarness({ script: [{ text: 'ok' }] });
    h.agent({ name: 'told', instructions: 'Be brief.' });
    await h.ended(h.turns.startTurn({ agent: 'told', prompt: 'hi' }).id);
    const sys = h.model.requests[0]!.system;
    expect(sys).toContain('Be brief.');
    expect(sys).toMatch(/report it in your answer rather than retrying/);
    expect(h.model.requests[0]!.toolNames).toEqual(expect.arrayContaining(['bash', 'read', 'write', 'edit', 'list', 'ask']));
    expect(h.model.requests[0]!.toolNames).not.toContain('continuation');
    expect(h.model.requests[0]!.toolNames).not.toContain('summarize');
    expect(h.model.requests[0]!.toolNames).not.toContain('ask_await');
  });
});

describe('runsStart', () => {
  it('the request tightens, never loosens, the profile: a stricter mode and extra deny rules apply; an extra allow is refused', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'refused, as expected' }] });
    h.agent({ name: 'tight', mode: 'bypass' });
    const loose = await h.api('runsStart', { agent: 'tight', prompt: 'x', extra_rules: [{ tool: 'bash', verdict: 'allow' }] });
    expect(loose.ok).toBe(false);
    expect(loose.error!.code).toBe('invalid_rules');
    const started = await h.api('runsStart', {
      agent: 'tight',
      prompt: 'go',
      mode: 'rules',
      extra_rules: [{ tool: 'bash', verdict: 'deny', reason: 'not in this run' }],
    });
    expect(started.value).toMatchObject({ agent: 'tight', mode: 'rules', status: 'running' });
    const ended = await h.ended(started.value.id);
    expect(ended.status).toBe('succeeded');
    expect(h.nexus.kernel.listRows(ended.id)[0]).toMatchObject({ state: 'failed', error: { code: 'approval_denied', detail: 'not in this run' } });
    expect((await h.api('runsStart', { agent: 'nobody', prompt: 'x' })).error!.code).toBe('not_found');
  });
});

describe('after a restart', () => {
  it('a run parked when NEXUS closed picks up its fan: approve after the restart and the turn finishes', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo survived' } }] }, { text: 'Finished after the restart.' }] });
    h.agent({ name: 'durable', mode: 'ask' });
    const run = h.turns.startTurn({ agent: 'durable', prompt: 'go' });
    const parked = await h.row(run.id, (r) => r.state === 'needs_approval');
    await h.restart();
    expect(h.nexus.recovery.parked).toEqual([parked.id]);
    expect(h.nexus.kernel.getRun(run.id)!.status).toBe('running');
    expect((await h.api('inboxApprove', { id: parked.id })).ok).toBe(true);
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'Finished after the restart.' });
    expect(h.model.requests[1]!.toolResults[0]!.text.split('\n')[0]).toBe('survived');
  });
});

describe('the origin rule for what the kernel plants', () => {
  it('a continuation is a kernel row, pre-approved by its origin unless a rule naming kernel rows opts it back in', async () => {
    h = await turnsHarness({ script: [{ text: 'one' }, { text: 'two' }] });
    h.agent({ name: 'optin', approval_rules: [{ tool: 'continuation', verdict: 'ask', origin: 'kernel' }] });
    const run = h.turns.startTurn({ agent: 'optin', prompt: 'first' });
    await h.ended(run.id);
    h.turns.continueRun(run.id, 'second');
    const parked = await h.row(run.id, (r) => r.tool === 'continuation' && r.state === 'needs_approval');
    expect(parked.origin).toBe('kernel');
    expect(h.model.requests).toHaveLength(1);
    await h.api('inboxApprove', { id: parked.id });
    await h.model.waitForRequests(2);
    expect(await h.ended(run.id)).toMatchObject({ status: 'succeeded', final_answer: 'two' });
    expect(h.model.requests[1]!.userText).toBe('second');
  });
});

describe('closing NEXUS mid-turn', () => {
  it('closing while a model call is in flight ends it at once; the run resumes at the next start', async () => {
    h = await turnsHarness({ script: [{ fault: 'hang' }, { text: 'answered after the restart' }] });
    h.agent({ name: 'interrupted' });
    const run = h.turns.startTurn({ agent: 'interrupted', prompt: 'go' });
    await h.model.waitForRequests(1);
    const t0 = Date.now();
    await h.restart();
    expect(Date.now() - t0).toBeLessThan(5000);
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'answered after the restart' });
    expect(h.model.requests).toHaveLength(2);
  });
});

describe('a fan is one transaction', () => {
  it('every call of a fan is recorded and decided in ONE submitRows: one commit, rows in the order the model gave them', async () => {
    h = await turnsHarness({
      script: [{ toolCalls: [1, 2, 3].map((n) => ({ name: 'bash', input: { command: `echo fan-${n}` } })) }, { text: 'done' }],
    });
    h.agent({ name: 'fanner', mode: 'bypass' });
    const batches: number[] = [];
    const submitRows = h.nexus.kernel.submitRows.bind(h.nexus.kernel);
    h.nexus.kernel.submitRows = (run_id, calls) => (batches.push(calls.length), submitRows(run_id, calls));
    const start = await h.api('runsStart', { agent: 'fanner', prompt: 'three' });
    const run = await h.ended(start.value.id);
    expect(run.status).toBe('succeeded');
    expect(batches).toEqual([3]);
    expect(h.nexus.kernel.listRows(run.id).map((r) => r.input)).toEqual([1, 2, 3].map((n) => ({ command: `echo fan-${n}` })));
  });

  it('a call the kernel refuses before deciding rolls the fan back; then each call goes alone, so only that one is refused and the rest runs', async () => {
    h = await turnsHarness({
      script: [
        {
          toolCalls: [
            { name: 'bash', input: { command: 'refused-before-deciding' } },
            { name: 'bash', input: { command: 'echo still-runs' } },
          ],
        },
        { text: 'done' },
      ],
    });
    h.agent({ name: 'fanner', mode: 'bypass' });
    const submitRows = h.nexus.kernel.submitRows.bind(h.nexus.kernel);
    h.nexus.kernel.submitRows = (run_id, calls) => {
      if (calls.some((c) => (c.input as { command?: string }).command === 'refused-before-deciding')) throw new Error('this call is refused before the stage');
      return submitRows(run_id, calls);
    };
    const start = await h.api('runsStart', { agent: 'fanner', prompt: 'two' });
    const run = await h.ended(start.value.id);
    expect(run.status).toBe('succeeded');
    expect(h.nexus.kernel.listRows(run.id).map((r) => [r.input, r.state])).toEqual([[{ command: 'echo still-runs' }, 'succeeded']]);
    const second = h.model.requests[1]!;
    expect(second.toolResults.map((r) => r.text.split('\n')[0])).toEqual(['This tool call was not recorded, so it was not performed.', 'still-runs']);
    const shown = await h.api('runsShow', { id: run.id });
    expect(shown.value.events?.find((e: { type: string }) => e.type === 'row_refused')?.data).toMatchObject({ error: 'this call is refused before the stage' });
  });
});
