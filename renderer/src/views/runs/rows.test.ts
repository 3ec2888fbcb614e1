import { describe, it, expect } from 'vitest';
import { grantLine, groupRows, stateLabel, type Row } from './rows.js';

const row = (id: string, round: number | null, origin: Row['origin'] = 'model', extra: Partial<Row> = {}): Row =>
  ({ id, run_id: 'run_x', origin, tool: 'bash', input: {}, state: 'succeeded', round, ...extra }) as Row;

describe("a run's rows in the Runs view", () => {
  it('says who approved a row in words, not the door id ("approved by person:web")', () => {
    expect(grantLine({ approved_by: 'person:window', granted_by: 'person' })).toBe('approved by you in the app window');
    expect(grantLine({ approved_by: 'person:browser', granted_by: 'person' })).toBe('approved by you in the browser');
    expect(grantLine({ approved_by: 'person:cli', granted_by: 'person' })).toBe('approved by you with the nexus command');
    expect(grantLine({ approved_by: 'person:web', granted_by: 'person' })).toBe('approved by you in the browser');
    expect(grantLine({ approved_by: 'person:ipc', granted_by: 'person' })).toBe('approved by you in the app window');
    expect(grantLine({ approved_by: 'person:socket', granted_by: 'person' })).toBe('approved by you with the nexus command');
    // A hop a person approved at its orchestration hold, then granted by the stage: both are said.
    expect(grantLine({ approved_by: 'person:browser', granted_by: 'mode' })).toBe('hop approved by you in the browser; granted by the mode');
    expect(grantLine({ approved_by: null, granted_by: 'mode' })).toBe('granted by the mode');
    expect(grantLine({ approved_by: null, granted_by: 'trust' })).toBe('granted by session trust');
    expect(grantLine({ approved_by: null, granted_by: 'origin' })).toBe('granted by origin');
    expect(grantLine({ approved_by: null, granted_by: null })).toBe('');
  });

  it('groups rows in the order they happened: kernel rows between rounds stay where they ran', () => {
    const groups = groupRows([row('a', 1), row('b', null, 'kernel'), row('c', 3), row('d', null, 'kernel'), row('e', null, 'author')]);
    expect(groups.map((g) => [g.label, g.rows.map((r) => r.id).join('')])).toEqual([
      ['Round 1', 'a'],
      ['Kernel rows', 'b'],
      ['Round 2: no tool calls', ''],
      ['Round 3', 'c'],
      ['Kernel rows', 'd'],
      ['Appended rows', 'e'],
    ]);
    expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
    expect(groupRows([row('a', 1), row('b', 5)]).map((g) => g.label)).toEqual(['Round 1', 'Rounds 2–4: no tool calls', 'Round 5']);
  });

  it('shows a hop held by orchestration as held, not as a failure', () => {
    expect(stateLabel({ state: 'failed', error: { code: 'hop_held', detail: 'x' } })).toEqual({ text: 'held', cls: 'held' });
    expect(stateLabel({ state: 'failed', error: { code: 'approval_denied', detail: 'x' } })).toEqual({ text: 'failed', cls: 'failed' });
    expect(stateLabel({ state: 'needs_approval', error: null })).toEqual({ text: 'needs approval', cls: 'needs_approval' });
  });
});
