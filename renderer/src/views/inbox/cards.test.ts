import { describe, it, expect } from 'vitest';
import { askerLine, remedyLine, readableInput, diffLines, shortId, actionsOf, runLabel, trimSaid, chainPath } from './cards.js';
import { timeLeft } from '../../components/time.js';

const base = { id: 'x', agent: 'builder', tool: 'write', target: 'notes.md', run_id: 'r1', created_at: '' };
const effect = { agent: 'builder', tool: 'write', target: 'notes.md', input: {}, matched_rules: [], workspace: '/w' };

describe('what a card says', () => {
  it('says which of the two asks: the agent autonomy mode, or orchestration for hop N of a chain', () => {
    expect(askerLine({ ...base, kind: 'autonomy', effect: { ...effect, mode: 'ask' } })).toBe(
      "Asked by builder's autonomy mode (ask): the call parked until you answer.",
    );
    expect(askerLine({ ...base, kind: 'orchestration', hop: 2, chain_id: 'chain_0123456789abcdef' })).toMatch(
      /^Asked by orchestration: hop 2 of chain chain_…abcdef\./,
    );
    expect(remedyLine({ ...base, kind: 'orchestration' })).toMatch(/never covers a hold/);
  });

  it('shortens ids to their prefix and the tail where they differ (time-ordered ids share their first characters)', () => {
    // Two runs made a minute apart: a short form of the id alone would show "run_01a2" for both.
    expect(shortId('run_01a22b1af66b5bc0a0dd60290acb')).toBe('run_…290acb');
    expect(shortId('run_01a22b1c44a9481af80e1f889a53')).toBe('run_…889a53');
    expect(shortId('chain_1f8e673bed85b3f8')).toBe('chain_…85b3f8');
    expect(shortId('37b79e73277ff8ada8b5be59f54f7a8f')).toBe('…4f7a8f');
    expect(shortId('r1')).toBe('r1');
    expect(shortId(null)).toBe('—');
  });

  it('says in plain words what failed on an attention card', () => {
    expect(askerLine({ ...base, kind: 'attention', tool: 'delegate_task' })).toMatch(/^A task delegated to builder failed\. .*Dismiss closes this card\.$/);
    expect(askerLine({ ...base, kind: 'attention', tool: 'bash', target: 'stop hook' })).toMatch(/^A lifecycle hook of builder's run failed/);
  });

  it('shows a shell command as text and anything else as JSON', () => {
    expect(readableInput('bash', { command: 'ls -la' })).toEqual({ kind: 'command', text: 'ls -la' });
    expect(readableInput('write', { path: 'a' }).text).toBe('{\n  "path": "a"\n}');
  });

  it('splits a unified diff into coloured lines without file headers', () => {
    const d = '--- a/notes.md\n+++ b/notes.md\n@@ -1 +1,2 @@\n-old\n+new\n+more\n context\n\\ No newline at end of file\n';
    expect(diffLines(d).map((l) => l.sign + l.text)).toEqual(['@@@ -1 +1,2 @@', '-old', '+new', '+more', ' context']);
  });

  it('counts down the 24 h park clock', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(timeLeft('2026-01-02T00:00:00Z', now)).toBe('24 h 00 min left');
    expect(timeLeft('2026-01-01T00:05:30Z', now)).toBe('5 min left');
    expect(timeLeft('2025-12-31T00:00:00Z', now)).toBe('expiring now');
    expect(timeLeft(undefined, now)).toBeNull();
  });

  it('offers only the answers that work: a failed delegated task is dismissed, never retried', () => {
    expect(actionsOf({ kind: 'attention', tool: 'delegate_task' })).toEqual(['abandon']);
    expect(actionsOf({ kind: 'attention', tool: 'bash' })).toEqual(['retry', 'abandon']);
    expect(actionsOf({ kind: 'orchestration', tool: 'delegate_task' })).toEqual(['approve', 'deny']);
    expect(actionsOf({ kind: 'question', tool: 'ask' })).toEqual(['answer']);
  });

  it('names a run by its agent and start time, not its id', () => {
    const at = new Date(2026, 0, 5, 10, 42).toISOString();
    expect(runLabel('builder', at, new Date(2026, 0, 5, 12).getTime())).toBe('builder · started 10:42');
    expect(runLabel(null, at, new Date(2026, 0, 5, 12).getTime())).toBe('standalone run · started 10:42');
    expect(runLabel('builder', at, new Date(2026, 0, 7).getTime())).toMatch(/^builder · started .*5.* 10:42$/);
    expect(runLabel('builder', null)).toBe('builder');
  });

  it('trims what the agent said at a word, and says when there is more', () => {
    expect(trimSaid('  short  ')).toEqual({ short: 'short', cut: false });
    const long = 'word '.repeat(100);
    const t = trimSaid(long, 50);
    expect(t.cut).toBe(true);
    expect(t.short.endsWith('word…')).toBe(true);
    expect(t.short.length).toBeLessThanOrEqual(51);
  });

  it("draws a held hop's path: lead → mid → this agent, and who handed the work on", () => {
    const chain = {
      agents: ['lead', 'mid', 'worker'],
      hops: [
        { hop: 1, agent: 'lead', action: 'delegate_task', target: 'mid' },
        { hop: 2, agent: 'mid', action: 'delegate_task', target: 'worker' },
        { hop: 3, agent: 'worker', action: 'bash', target: 'make' },
      ],
    };
    expect(chainPath(chain, 3, 'worker')).toEqual({ path: ['lead', 'mid', 'worker'], handedBy: 'mid' });
    expect(chainPath(chain, 2, 'mid')).toEqual({ path: ['lead', 'mid'], handedBy: 'lead' });
    expect(chainPath(undefined, 2, 'mid')).toEqual({ path: ['mid'], handedBy: null });
  });
});
