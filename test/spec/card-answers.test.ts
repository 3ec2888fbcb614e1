// A card names only the answers it accepts (issue 25 items 5 and 6): the one list (shared/inbox/answers.ts)
// is what the kernel carries out, what each card carries to the window and the CLI, and, under mode ask, the
// `ask` call's own autonomy card takes the answer, approving and answering in one step. Real kernel (turns +
// governance), scripted models over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../support/scripted-model.js';
import { delegate, last, queue, scenario, type Scenario } from '../support/scenarios.js';
import { answerCommands } from '../../shared/inbox/answers.js';
import type { InboxItem } from '../../shared/api/inbox.js';
import { main } from '../../electron/cli/main.js';
import { startSocketDoor, type SocketDoor } from '../../electron/doors/socket.js';

let s: Scenario | null = null;
let door: SocketDoor | null = null;
afterEach(async () => {
  await door?.close();
  await s?.cleanup();
  s = null;
  door = null;
});
/** The real `nexus` command, in process, through the real control socket of the scenario's data dir. */
async function nexus(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  door ??= await startSocketDoor(s!.nexus);
  let out = '';
  let err = '';
  const code = await main([...argv, '--data-dir', s!.dataDir], { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) });
  return { code, out, err };
}

describe('a failed delegated task offers only what it accepts (issue 25 item 5)', () => {
  it('its attention card lists abandon alone; retry answers not_supported naming the abandon command', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid', 'Make it pass.', 'false')] }, { text: 'lead reports the failure' }]),
      mid: (_req: ScriptedRequest, i: number) => ({ text: `attempt ${i + 1}` }),
    });
    await s.open(['lead'], false);
    await s.call('settingsSet', { key: 'delegation.maxRefusals', value: 1 });
    await s.ended(s.start('lead').id);
    const card = (await s.call<InboxItem[]>('inboxList')).find((c) => c.kind === 'attention')!;
    expect(card.answers).toEqual(['abandon']);
    expect(answerCommands(card.answers!, card.id)).toEqual([`nexus abandon ${card.id}`]);
    await expect(s.call('inboxRetry', { id: card.id })).rejects.toThrow(/not_supported|cannot be answered with retry: use `nexus abandon ID`/);
    // `nexus inbox` hints at the one answer it takes; `nexus retry` is refused with the command that answers.
    const listed = await nexus('inbox');
    expect(listed.out).toContain(`nexus abandon ${card.id}`);
    expect(listed.out).not.toContain('nexus retry');
    const retried = await nexus('retry', card.id);
    expect(retried.code).toBe(1);
    expect(retried.err).toMatch(/use `nexus abandon ID`/);
    expect((await nexus('abandon', card.id)).code).toBe(0);
    expect(await s.call<InboxItem[]>('inboxList')).toEqual([]);
  });
});

describe('under mode ask, one question is one card (issue 25 item 6)', () => {
  it("the ask call's autonomy card takes the answer: approved and answered in one step, no question card, the model reads the answer", async () => {
    s = await scenario({
      asker: {
        mode: 'ask',
        script: queue([{ toolCalls: [{ name: 'ask', input: { question: 'Which colour?' } }] }, { text: 'done' }]),
      },
    });
    const run = s.start('asker');
    const card = await s.until('the autonomy card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'autonomy'));
    const [listed] = await s.call<InboxItem[]>('inboxList');
    expect(listed).toMatchObject({ id: card.id, tool: 'ask', answers: ['approve', 'deny', 'answer'] });
    await expect(s.call('inboxAnswer', { id: card.id, text: '  ' })).rejects.toThrow(/needs text/);
    const hint = await nexus('inbox');
    expect(hint.out).toContain('asks: Which colour?');
    expect(hint.out).toContain(`nexus approve ${card.id} | nexus deny ${card.id} | nexus answer ${card.id} TEXT`);
    expect((await nexus('answer', card.id, 'Blue.')).code).toBe(0);
    const ended = await s.ended(run.id);
    expect(ended.status).toBe('succeeded');
    expect(last(s.requests('asker')[1]!).split('\n')[0]).toBe('Blue.');
    expect((s.gov.db.prepare("SELECT COUNT(*) AS n FROM inbox WHERE kind = 'question'").get() as { n: number }).n).toBe(0);
    const ask = s.rowsOf('asker').find((r) => r.tool === 'ask')!;
    expect(ask).toMatchObject({ state: 'succeeded', granted_by: 'person' });
  });

  it('an autonomy card of any other call does not take an answer (it says what does)', async () => {
    s = await scenario({ asker: { mode: 'ask', script: queue([{ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'done' }]) } });
    s.start('asker');
    const card = await s.until('the autonomy card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'autonomy'));
    await expect(s.call('inboxAnswer', { id: card.id, text: 'Blue.' })).rejects.toThrow(/use `nexus approve ID` or `nexus deny ID`/);
  });
});
