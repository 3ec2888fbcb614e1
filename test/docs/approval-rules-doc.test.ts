// docs/approval-rules.md against shared/rules: each of the fifteen examples validates, and every call in its
// table evaluates to the outcome the page states; the lint kinds and the six keys are the code's.
import { describe, expect, it } from 'vitest';
import { compileRules, DEFAULT_KNOWN_TOOLS, evaluateCall, lintRules, validateRules } from '../../shared/rules/index.js';
import { MODES, ORIGINS, type Mode, type Origin } from '../../shared/types.js';
import { bodyRows, fences, readDoc, sections, unquote } from '../support/docs-markdown.js';

const page = readDoc('approval-rules.md');
const examples = sections(sections(page, 2).find((s) => s.title === 'Fifteen examples')!.body, 3);

/** `TOOL INPUT_JSON` with an optional ` (author)` / ` (kernel)`. */
function parseCall(cell: string): { tool: string; input: unknown; origin: Origin } {
  const m = /^(\S+) (.*?)(?: \((author|kernel)\))?$/.exec(unquote(cell));
  if (!m) throw new Error(`not a call: ${cell}`);
  return { tool: m[1], input: JSON.parse(m[2]), origin: (m[3] as Origin | undefined) ?? 'model' };
}

/** What the page writes for an outcome. */
function said(d: ReturnType<typeof evaluateCall>): string {
  if (d.outcome === 'granted') return `granted by ${d.granted_by}`;
  if (d.outcome === 'parked') return 'parked';
  return `failed: ${d.error.detail}`;
}

describe('docs/approval-rules.md: the fifteen examples run through shared/rules as the page says', () => {
  it('there are exactly fifteen, each with a rule list and a table of calls', () => {
    expect(examples.map((e) => e.title)).toHaveLength(15);
    for (const e of examples) {
      expect(
        fences(e.body).filter((f) => f.lang === 'json'),
        e.title,
      ).toHaveLength(1);
      expect(bodyRows(e.body).length, e.title).toBeGreaterThan(0);
    }
  });
  for (const e of examples) {
    it(e.title, () => {
      const v = validateRules(JSON.parse(fences(e.body)[0].body));
      expect(v.ok ? [] : v.errors, 'the example validates').toEqual([]);
      if (!v.ok) return;
      const compiled = compileRules(v.rules);
      for (const [mode, call, outcome] of bodyRows(e.body)) {
        expect(MODES).toContain(mode);
        expect(said(evaluateCall(compiled, mode as Mode, parseCall(call))), `${mode} ${call}`).toBe(outcome);
      }
    });
  }
});

describe('docs/approval-rules.md: the reference tables are the code', () => {
  it('the six keys', () => {
    const keys = bodyRows(sections(page, 2).find((s) => s.title === 'The six keys')!.body).map((r) => unquote(r[0]));
    expect(keys).toEqual(['tool', 'verdict', 'path', 'match', 'reason', 'origin']);
    // a seventh key is refused with the message the page quotes
    const v = validateRules([{ tool: 'bash', verdict: 'allow', colour: 'red' }]);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(page).toContain(v.errors[0].message.replace(/^rule 0: /, ''));
  });
  it("every validation message the page quotes is the validator's, word for word", () => {
    const cases: unknown[] = [
      [{ verdict: 'allow' }],
      [{ tool: 'bash', verdict: 'permit' }],
      [{ tool: 'bash', verdict: 'allow', origin: 'person' }],
      [{ tool: 'bash', verdict: 'allow', match: 'ls' }],
      [{ tool: 'bash', verdict: 'allow', path: 'edits..path' }],
    ];
    for (const c of cases) {
      const v = validateRules(c);
      expect(v.ok).toBe(false);
      if (!v.ok) expect(page.replace(/\\\|/g, '|'), JSON.stringify(c)).toContain(v.errors[0].message.replace(/^rule 0: /, ''));
    }
    expect(validateRules([{ tool: 'bash|', verdict: 'allow' }]).ok).toBe(false);
  });
  it("the lint kinds are exactly the linter's", () => {
    const kinds = bodyRows(sections(page, 2).find((s) => s.title === 'Validation and lint')!.body)
      .map((r) => unquote(r[0]))
      .filter((k) => /^[a-z_]+$/.test(k));
    const produced = new Set<string>();
    const lists: unknown[] = [
      [{ tool: 'bash', verdict: 'allow', path: 'command', match: 'ls *' }],
      [
        { tool: '*', verdict: 'allow' },
        { tool: 'bash', verdict: 'allow' },
      ],
      [
        { tool: 'bash', verdict: 'ask' },
        { tool: 'bash', verdict: 'ask' },
      ],
      [{ tool: 'bash', verdict: 'allow', origin: 'author' }],
      [{ tool: 'bsh', verdict: 'allow' }],
      [{ tool: 'Bash', verdict: 'allow' }],
      [{ tool: 'bash__0123456789ab', verdict: 'allow' }],
    ];
    for (const l of lists) {
      const v = validateRules(l);
      if (v.ok) for (const w of lintRules(v.rules)) produced.add(w.kind);
    }
    // bypass_ask needs the agent's mode: an ask rule under bypass.
    for (const w of lintRules([{ tool: 'bash', verdict: 'ask' }], DEFAULT_KNOWN_TOOLS, 'bypass')) produced.add(w.kind);
    expect(new Set(kinds)).toEqual(produced);
  });
  it('the origins and the alias table', async () => {
    expect(page).toContain(
      ORIGINS.map((o) => `\`${o}\``)
        .slice(1)
        .join(' or '),
    );
    const { KERNEL_ALIASES } = await import('../../shared/rules/tool-names.js');
    const table = sections(page, 2).find((s) => s.title.startsWith('Tool names'))!.body;
    for (const [alias, entry] of Object.entries(KERNEL_ALIASES)) {
      const row = bodyRows(table).find((r) => r[0].split(', ').map(unquote).includes(alias));
      expect(row, alias).toBeDefined();
      expect(row![1]).toContain(`\`${entry.name}\``);
      for (const [from, to] of Object.entries(entry.renames ?? {})) expect(row![2]).toContain(`\`${from}\` → \`${to}\``);
    }
  });
});
