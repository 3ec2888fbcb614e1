// The stage's whole verdict, one table: every outcome of the rules × an escape asked × a call that can never run ×
// session trust, each row checked as a whole value, and each of the kernel's questions asked only when the
// verdict turns on it.
import { describe, expect, it } from 'vitest';
import { stageVerdict, type StageVerdict } from './stage-verdict.js';
import type { Evaluation } from './rules/evaluate.js';

const tool = 'bash';
const matched = [2];
const rules: Record<'granted' | 'parked' | 'failed', Evaluation> = {
  granted: { outcome: 'granted', granted_by: 'rule', tool, matched, runner: null },
  parked: { outcome: 'parked', tool, matched, runner: null },
  failed: { outcome: 'failed', error: { code: 'approval_denied', detail: 'no force pushes' }, tool, matched, runner: null },
};
const UNRUNNABLE = { code: 'unknown_tool', text: 'No tool named bash is available to this run.' };
const ESCAPE = 'dangerouslyDisableSandbox: true';

const grant = (granted_by: 'rule' | 'trust'): StageVerdict => ({ act: 'grant', granted_by, tool, matched });
const park = (escape?: string): StageVerdict => ({ act: 'park', tool, matched, ...(escape ? { escape } : {}) });
const byRule: StageVerdict = { act: 'refuse', by: 'rules', code: 'approval_denied', detail: 'no force pushes', tool, matched };
const cannot: StageVerdict = { act: 'refuse', by: 'unrunnable', code: UNRUNNABLE.code, detail: UNRUNNABLE.text, tool, matched };

type Row = [keyof typeof rules, boolean, boolean, boolean, StageVerdict];
// rules say, escape asked, can never run, trusted → verdict
const table: Row[] = [
  ['failed', false, false, false, byRule],
  ['failed', true, true, true, byRule],
  ['failed', true, false, false, byRule],
  ['granted', false, false, false, grant('rule')],
  ['granted', false, true, false, grant('rule')],
  ['granted', false, false, true, grant('rule')],
  ['granted', true, false, false, park(ESCAPE)],
  ['granted', true, false, true, park(ESCAPE)],
  ['granted', true, true, false, cannot],
  ['parked', false, false, false, park()],
  ['parked', false, false, true, grant('trust')],
  ['parked', false, true, false, cannot],
  ['parked', false, true, true, cannot],
  ['parked', true, false, true, park(ESCAPE)],
  ['parked', true, true, false, cannot],
];

describe('the stage verdict', () => {
  it.each(table)('rules %s, escape %s, never runs %s, trusted %s', (said, escape, never, trusted, want) => {
    const verdict = stageVerdict(rules[said], {
      ...(escape ? { escape: ESCAPE } : {}),
      unrunnable: () => (never ? UNRUNNABLE : null),
      trusted: () => trusted,
    });
    expect(verdict).toEqual(want);
  });

  it('asks the kernel nothing for a call the rules grant or deny, and whether it can run before whether it is trusted', () => {
    const asked: string[] = [];
    const facts = (escape?: string) => ({
      ...(escape ? { escape } : {}),
      unrunnable: () => (asked.push('unrunnable'), null),
      trusted: () => (asked.push('trusted'), false),
    });
    stageVerdict(rules.failed, facts(ESCAPE));
    stageVerdict(rules.granted, facts());
    expect(asked).toEqual([]);
    stageVerdict(rules.parked, facts());
    expect(asked).toEqual(['unrunnable', 'trusted']);
    asked.length = 0;
    // An escape is never granted by trust, so trust is not asked.
    stageVerdict(rules.parked, facts(ESCAPE));
    expect(asked).toEqual(['unrunnable']);
  });
});
