// An agent's approval: its mode, its rule list (checked as typed) and a tester that says what the rules decide.
import type { ReactNode } from 'react';
import { RulesEditor, type RulesCheckState } from './RulesEditor.js';
import { RuleTester } from './RuleTester.js';
import type { Mode } from '../../../../shared/types.js';

const MODE_HELP: Record<Mode, string> = {
  ask: 'Every call the model makes parks for your approval unless an allow rule names it.',
  rules: 'The rules are the policy: allow grants, ask parks, and what no rule names is refused.',
  bypass: 'Every call is granted, except what a deny rule refuses.',
};

const MODES: readonly Mode[] = ['ask', 'rules', 'bypass'];

interface Props {
  mode: Mode;
  onMode(mode: Mode): void;
  rulesText: string;
  onRulesText(text: string): void;
  check: RulesCheckState;
  onCheck(check: RulesCheckState): void;
  /** What the kernel refused in the saved rules (the editor's field error). */
  rulesProblem: ReactNode;
  /** The agent the tester asks about; null for one not yet saved. */
  agent: string | null;
}

export function ApprovalSection({ mode, onMode, rulesText, onRulesText, check, onCheck, rulesProblem, agent }: Props) {
  return (
    <section className="panel">
      <h2>Approval</h2>
      <fieldset className="modes">
        <legend>Mode</legend>
        {MODES.map((m) => (
          <label key={m} className={`mode-option ${mode === m ? 'checked' : ''}`}>
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => onMode(m)} />
            <span className="mode-name">{m}</span>
            <span className="mode-help">{MODE_HELP[m]}</span>
          </label>
        ))}
      </fieldset>
      <h3>Rules</h3>
      <p className="setting-desc">
        A JSON array; each rule has <code>tool</code> and <code>verdict</code> (allow | ask | deny), optionally <code>path</code>, <code>match</code>,{' '}
        <code>reason</code>, <code>origin</code>. Deny wins, then ask, then allow.
      </p>
      <RulesEditor text={rulesText} mode={mode} onText={onRulesText} onCheck={onCheck} />
      {rulesProblem}
      <RuleTester mode={mode} rules={check.rules} rulesValid={check.valid} agent={agent} />
    </section>
  );
}
