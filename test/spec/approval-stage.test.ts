// Seed 000 / DESIGN §2, §4, §7 sentences that had no test of their own (docs/spec-coverage.md lists them),
// each named after the sentence. Real kernel (createNexus on a fresh temp dir), scripted models over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../support/scripted-model.js';
import { delegate, last, queue, scenario, structuredOf, type Scenario } from '../support/scenarios.js';
import { saveAgent } from '../../electron/agents/profiles.js';
import { listRunEvents } from '../../electron/store/queries/events.js';
import type { InboxItem } from '../../shared/api/inbox.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});
const BUILT_INS = ['bash', 'read', 'write', 'edit', 'list', 'ask', 'delegate_task', 'message_agent'];

describe('DESIGN §7 "Agents have no tool that approves anything"', () => {
  it('the tools offered to a model are the built-ins (none approves, denies, trusts or changes a setting); a model calling one is refused and the card stays', async () => {
    s = await scenario({
      asker: { mode: 'ask', script: queue([{ toolCalls: [{ name: 'bash', input: { command: 'echo parked' } }] }]) },
      sneaky: queue([
        {
          toolCalls: [
            { name: 'approve', input: { id: 'x' } },
            { name: 'inboxApprove', input: { id: 'x' } },
            { name: 'settingsSet', input: { key: 'orchestration.enabled', value: true } },
          ],
        },
        { text: 'could not' },
      ]),
    });
    s.start('asker');
    const card = await s.until('the autonomy card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'autonomy'));
    await s.ended(s.start('sneaky').id);
    const offered = s.requests('sneaky')[0]!.toolNames;
    expect(offered.length).toBeGreaterThan(0);
    for (const name of offered) expect(BUILT_INS).toContain(name);
    expect(s.rowsOf('sneaky').map((r) => [r.state, r.error?.code])).toEqual([
      ['failed', 'unknown_tool'],
      ['failed', 'unknown_tool'],
      ['failed', 'unknown_tool'],
    ]);
    expect((await s.call<InboxItem[]>('inboxList')).map((c) => c.id)).toEqual([card.id]);
    expect((await s.call<Record<string, unknown>>('settingsGet'))['orchestration.enabled']).toBe(false);
  });
});

describe('seed 000 origin rule: "a person\'s ... --until check never parks" (the kernel plants the acceptance check)', () => {
  it("a delegated task's acceptance check is a kernel row granted by its origin under the recipient's ask mode: no card", async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'x', 'echo checked')] }, { text: 'lead done' }]),
      mid: { mode: 'ask', script: queue([{ text: 'mid done' }]) },
    });
    const ended = await s.ended(s.start('lead').id);
    expect(ended.status).toBe('succeeded');
    const check = s.rowsOf('mid').find((r) => r.tool === 'bash')!;
    expect(check).toMatchObject({ origin: 'kernel', state: 'succeeded', granted_by: 'origin' });
    expect(await s.call('inboxList')).toEqual([]);
    expect(structuredOf(last(s.requests('lead')[1]!))).toMatchObject({ status: 'completed' });
  });
});

describe('DESIGN §4 "at most N times a turn (default 3; then the answer is accepted and the cap is reported)"', () => {
  it('with approval.stopHookCap never set, a stop hook that always continues is obeyed 3 times, then the 4th answer is accepted', async () => {
    s = await scenario({ capped: (_req: ScriptedRequest, i: number) => ({ text: `answer ${i + 1}` }) });
    saveAgent(s.nexus.kernel, {
      name: 'capped',
      mode: 'bypass',
      model: { provider: 'chat-completions', baseURL: s.models.capped.baseURL, model: 'scripted-capped' },
      lifecycle_hooks: { stop: [{ tool: 'bash', input: { command: 'echo "not yet" >&2; exit 2' } }] },
    });
    const run = s.start('capped');
    const ended = await s.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'answer 4' });
    expect(s.requests('capped')).toHaveLength(4);
    expect(s.requests('capped')[1]!.userText).toContain('not yet');
    const events = listRunEvents(s.nexus.db, run.id);
    expect(events.filter((e) => e.type === 'stop_hook_continue')).toHaveLength(3);
    expect(events.find((e) => e.type === 'stop_hook_cap_reached')?.data).toMatchObject({ cap: 3 });
  });
});
