// Try a call against the rules being edited: the outcome, who granted it, and which rules matched. A call the
// rules park that a standing session-trust grant of this agent covers runs without asking, as the stage does.
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { matchedLine } from './rules-text.js';
import type { Mode, Origin } from '../../../../shared/types.js';
import { errorMessage } from '../../../../shared/errors.js';
import { trustCovering } from '../../../../shared/trust.js';
import { useGrants } from '../../stores/grants.js';

type Outcome = {
  outcome: 'granted' | 'parked' | 'failed';
  granted_by: string | null;
  error: { code: string; detail: string } | null;
  tool: string;
  matched: number[];
};

export function RuleTester({ mode, rules, rulesValid, agent }: { mode: Mode; rules: unknown; rulesValid: boolean; agent: string | null }) {
  const grants = useGrants((s) => s.trust);
  const refreshGrants = useGrants((s) => s.refresh);
  useEffect(() => void refreshGrants(), [refreshGrants]);
  const [tool, setTool] = useState('bash');
  const [inputText, setInputText] = useState('{"command": "ls -la"}');
  const [origin, setOrigin] = useState<Origin>('model');
  const [result, setResult] = useState<(Outcome & { input: unknown }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let stale = false;
    const t = setTimeout(async () => {
      if (!rulesValid) return setProblem('Fix the rule list to test it.');
      if (!tool.trim()) return setProblem('Type a tool name.');
      let input: unknown = {};
      try {
        input = inputText.trim() ? JSON.parse(inputText) : {};
      } catch (e) {
        return setProblem(`The input is not JSON: ${errorMessage(e)}`);
      }
      try {
        const r = await call('rulesEval', { mode, rules, tool: tool.trim(), input, origin });
        if (!stale) {
          setResult({ ...r, input });
          setProblem(null);
        }
      } catch (e) {
        if (!stale) setProblem(errorMessage(e));
      }
    }, 120);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [mode, rules, rulesValid, tool, inputText, origin]);

  // Origin author/kernel rows are pre-approved by the stage, never parked, so trust only matters for a park.
  const trusted = result?.outcome === 'parked' ? trustCovering(grants, agent, tool.trim(), result.input) : undefined;

  return (
    <section className="rule-tester" aria-labelledby="tester-title">
      <h3 id="tester-title">Test a call</h3>
      <div className="tester-grid">
        <label>
          Tool
          <input className="input" value={tool} onChange={(e) => setTool(e.target.value)} aria-label="Test tool name" />
        </label>
        <label>
          Origin
          <select className="input" value={origin} onChange={(e) => setOrigin(e.target.value as Origin)} aria-label="Test origin">
            <option value="model">model (the agent composed it)</option>
            <option value="author">author (appended by a person)</option>
            <option value="kernel">kernel (planted by NEXUS)</option>
          </select>
        </label>
        <label className="wide">
          Input (JSON)
          <input className="input mono" value={inputText} onChange={(e) => setInputText(e.target.value)} aria-label="Test input" />
        </label>
      </div>
      <div className="tester-result" role="status" aria-label="Test outcome">
        {problem ? (
          <span className="muted">{problem}</span>
        ) : result ? (
          <>
            <span className={`outcome ${trusted ? 'granted' : result.outcome}`}>{trusted ? 'granted' : result.outcome}</span>
            {trusted ? (
              <span className="muted" data-testid="tester-trust">
                {' '}
                by trust for this session ({trusted.scope.kind === 'agent' ? `all of ${trusted.agent}'s calls that would ask` : trusted.covers}; ends{' '}
                {trusted.ends}). The rules alone park it.
              </span>
            ) : result.granted_by ? (
              <span className="muted"> by {result.granted_by}</span>
            ) : null}
            {result.tool !== tool.trim() ? (
              <span className="muted">
                {' '}
                · resolved to <code>{result.tool}</code>
              </span>
            ) : null}
            <span className="muted"> · {matchedLine(result.matched)}</span>
            {result.error ? <div className="deny-detail">{result.error.detail}</div> : null}
          </>
        ) : (
          <span className="muted">…</span>
        )}
      </div>
    </section>
  );
}
