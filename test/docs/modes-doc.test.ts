// docs/modes.md against the code: every cell of the mode table evaluated through shared/rules, the origins
// row, the granted_by values of the API, and the texts a model reads, as the kernel writes them.
import { describe, expect, it } from 'vitest';
import { compileRules, evaluateCall, validateRules } from '../../shared/rules/index.js';
import { MODES, ORIGINS, type Mode } from '../../shared/types.js';
import { RowView } from '../../shared/api/runs.js';
import { deniedByPerson, deniedByStage, expired, interrupted, resultText } from '../../electron/kernel/results.js';
import { bodyRows, readDoc, sections, unquote } from '../support/docs-markdown.js';

const page = readDoc('modes.md');
const section = (title: string) => sections(page, 2).find((s) => s.title === title)!.body;

const RULE_FOR: Record<string, unknown[]> = {
  'deny matches': [{ tool: 'bash', verdict: 'deny', reason: 'r' }],
  'allow matches': [{ tool: 'bash', verdict: 'allow' }],
  'ask matches': [{ tool: 'bash', verdict: 'ask' }],
  'nothing matches': [],
};

describe('docs/modes.md', () => {
  it('the mode table: every cell is what the stage decides', () => {
    const rows = bodyRows(section('The table'));
    expect(rows.map((r) => unquote(r[0]))).toEqual([...MODES]);
    const columns = ['deny matches', 'allow matches', 'ask matches', 'nothing matches'];
    for (const row of rows) {
      columns.forEach((col, i) => {
        const v = validateRules(RULE_FOR[col]);
        if (!v.ok) throw new Error('bad fixture');
        const d = evaluateCall(compileRules(v.rules), unquote(row[0]) as Mode, { tool: 'bash', input: { command: 'ls' }, origin: 'model' });
        const said =
          d.outcome === 'granted'
            ? `granted by ${d.granted_by}`
            : d.outcome === 'parked'
              ? 'parked'
              : d.error.detail === 'r'
                ? 'failed'
                : `failed: ${d.error.detail.replace('bash', 'NAME')}`;
        expect(said, `${row[0]} × ${col}`).toBe(row[i + 1]);
      });
    }
  });
  it('origins: author and kernel rows are granted by origin under every mode', () => {
    const rows = bodyRows(section('Origins'));
    expect(rows.map((r) => unquote(r[0]))).toEqual([...ORIGINS]);
    for (const origin of ['author', 'kernel'] as const)
      for (const mode of MODES)
        expect(evaluateCall(compileRules([]), mode, { tool: 'bash', input: {}, origin })).toMatchObject({ outcome: 'granted', granted_by: 'origin' });
  });
  it('granted_by: the page names exactly the values a row can carry', () => {
    const named = new Set(bodyRows(section('Outcomes')).flatMap((r) => [...r[2].matchAll(/`([a-z]+)`/g)].map((m) => m[1])));
    const api = RowView.shape.granted_by.unwrap().unwrap().options;
    expect(named).toEqual(new Set(api));
  });
  it("what the model reads: the texts are the kernel's", () => {
    const text = section('What the model reads');
    expect(text).toContain(resultText(deniedByStage('<reason>')).split('\n')[0]);
    expect(text).toContain(JSON.stringify(deniedByStage('<reason>').structuredContent));
    expect(text).toContain(resultText(deniedByStage('no approval rule allows NAME')).split('\n')[0]);
    expect(text).toContain(resultText(deniedByPerson('<reason>')).split('\n')[0]);
    expect(text).toContain(`exactly \`${resultText(expired())}\``);
    expect(text).toContain(resultText(interrupted()).split('\n')[0]);
    const v = validateRules([{ tool: 'bash', verdict: 'deny' }]);
    if (!v.ok) throw new Error('bad fixture');
    const d = evaluateCall(compileRules(v.rules), 'bypass', { tool: 'bash', input: {}, origin: 'model' });
    expect(d.outcome === 'failed' && d.error.detail).toMatch(/^denied by approval rule 0 \{/);
  });
});
