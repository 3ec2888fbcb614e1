// Issue 25.3: a model that keeps calling tools is stopped by the run's budget (max_rounds, max_rows; defaults
// 200 and 2,000): the run ends failed with a sentence naming the limit, and an attention card says so.
// Real kernel, store and stage; the scripted model on real HTTP answers every request with more tool calls.
import { afterEach, describe, expect, it } from 'vitest';
import { turnsHarness, type TurnsHarness } from '../../test/support/turns.js';
import { DEFAULT_MAX_ROUNDS, DEFAULT_MAX_ROWS, budgetSpent } from './turn-limits.js';

let h: TurnsHarness;
afterEach(async () => h?.cleanup());

const ALLOW_ECHO = [{ tool: 'bash', path: 'command', match: 'echo *', verdict: 'allow' as const }];
const forever = (calls: number) => () => ({
  text: 'More.',
  toolCalls: Array.from({ length: calls }, (_, i) => ({ name: 'bash', input: { command: `echo ${i}` } })),
});

describe('the runaway budget', () => {
  it('max_rounds ends a run that never stops calling tools, with a sentence and an attention card', async () => {
    h = await turnsHarness({ script: forever(1) });
    h.agent({ name: 'looper', mode: 'bypass', approval_rules: ALLOW_ECHO, max_rounds: 5 });
    const start = await h.api('runsStart', { agent: 'looper', prompt: 'loop' });
    const run = await h.ended(start.value.id as string);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      'The run reached its round limit (5 model rounds, max_rounds) and was ended so a looping agent cannot run on: start a new run to go on, or raise it in the agent file.',
    );
    expect(h.model.requests).toHaveLength(5);
    const inbox = await h.api('inboxList', {});
    const card = inbox.value.find((i: { run_id: string }) => i.run_id === run.id);
    expect(card).toMatchObject({ kind: 'attention', tool: 'budget', message: run.error });
    expect((await h.api('inboxRetry', { id: card!.id })).error).toMatchObject({ code: 'not_supported' });
    expect((await h.api('inboxAbandon', { id: card!.id })).ok).toBe(true);
  });

  it('max_rows ends a run whose rounds each make many rows', async () => {
    h = await turnsHarness({ script: forever(4) });
    h.agent({ name: 'fanner', mode: 'bypass', approval_rules: ALLOW_ECHO, max_rows: 10 });
    const start = await h.api('runsStart', { agent: 'fanner', prompt: 'fan' });
    const run = await h.ended(start.value.id as string);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The run reached its row limit \(10 tool calls, max_rows\)/);
    // Checked before each round: three rounds of four made 12 rows, the fourth round never started.
    expect(h.model.requests).toHaveLength(3);
    const shown = await h.api('runsShow', { id: run.id });
    expect(shown.value.budget).toEqual({ rounds: 3, rows: 12, max_rounds: 200, max_rows: 10 });
  });

  it('without the fields, the defaults are 200 rounds and 2,000 rows', () => {
    expect([DEFAULT_MAX_ROUNDS, DEFAULT_MAX_ROWS]).toEqual([200, 2000]);
    expect(budgetSpent(null, { rounds: 199, rows: 1999 })).toBeNull();
    expect(budgetSpent(null, { rounds: 200, rows: 0 })).toMatch(/round limit \(200 model rounds/);
    expect(budgetSpent(null, { rounds: 0, rows: 2000 })).toMatch(/row limit \(2000 tool calls/);
  });
});
