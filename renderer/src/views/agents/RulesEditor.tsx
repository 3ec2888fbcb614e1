// approval_rules with live validation: every keystroke (debounced) goes through rulesCheck, the same
// validator the kernel uses when the profile is saved. Errors name the rule and the key.
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { parseRulesText, locateIssue, ruleStartLine, oversizeIssues } from './rules-text.js';
import { errorMessage } from '../../../../shared/errors.js';
import type { Mode } from '../../../../shared/types.js';

export interface RulesCheckState {
  valid: boolean;
  rules: unknown;
  errors: string[];
  warnings: string[];
}

/** `mode` is the agent's: the lint says what its rules mean under it (under bypass an ask rule grants). */
export function RulesEditor({ text, mode, onText, onCheck }: { text: string; mode: Mode; onText(t: string): void; onCheck(s: RulesCheckState): void }) {
  const [state, setState] = useState<RulesCheckState>({ valid: true, rules: [], errors: [], warnings: [] });
  const [lines, setLines] = useState<number[]>([]);

  useEffect(() => {
    let stale = false;
    const t = setTimeout(async () => {
      const parsed = parseRulesText(text);
      let next: RulesCheckState;
      if (!parsed.ok) {
        next = { valid: false, rules: null, errors: [`Line ${parsed.line}, column ${parsed.column}: ${parsed.message}`], warnings: [] };
        setLines([parsed.line]);
      } else if (oversizeIssues(parsed.value)) {
        const errors = oversizeIssues(parsed.value)!;
        next = {
          valid: false,
          rules: null,
          errors: errors
            .slice(0, 20)
            .map(locateIssue)
            .concat(errors.length > 20 ? [`… and ${errors.length - 20} more`] : []),
          warnings: [],
        };
        setLines([]);
      } else {
        try {
          const r = await call('rulesCheck', { rules: parsed.value, mode });
          next = {
            valid: r.valid,
            rules: parsed.value,
            errors: r.errors.map(locateIssue),
            warnings: r.warnings.map((w) => locateIssue({ index: w.index, message: w.message })),
          };
          setLines(r.errors.map((e) => (e.index === null ? null : ruleStartLine(text, e.index))).filter((l): l is number => l !== null));
        } catch (e) {
          next = { valid: false, rules: null, errors: [`Could not check the rules: ${errorMessage(e)}`], warnings: [] };
        }
      }
      if (!stale) {
        setState(next);
        onCheck(next);
      }
    }, 120);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [text, mode]);

  const lineCount = Math.max(text.split('\n').length, 6);
  return (
    <div className="rules-editor">
      <div className={`code-editor ${state.valid ? '' : 'invalid'}`}>
        <div className="gutter" aria-hidden="true">
          {Array.from({ length: lineCount }, (_, i) => (
            <div key={i} className={lines.includes(i + 1) ? 'bad' : ''}>
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          aria-label="Approval rules (JSON)"
          aria-invalid={!state.valid}
          aria-describedby="rules-status"
          spellCheck={false}
          rows={lineCount}
          value={text}
          onChange={(e) => onText(e.target.value)}
        />
      </div>
      <div id="rules-status" className="rules-status" role="status" aria-live="polite">
        {state.valid ? (
          <p className="ok-line">✓ Valid rule list{Array.isArray(state.rules) ? ` (${state.rules.length} rule${state.rules.length === 1 ? '' : 's'})` : ''}.</p>
        ) : (
          <ul className="errors" aria-label="Rule errors">
            {state.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        )}
        {state.warnings.length ? (
          <ul className="warnings" aria-label="Rule warnings">
            {state.warnings.map((w, i) => (
              <li key={i}>⚠ {w}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
