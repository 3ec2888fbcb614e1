// docs/local-models.md against the code: the example agent is accepted, and the figures the page gives —
// the compaction budget, the model timeout, the placeholder key, the provider error codes — are the code's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentProfileInput } from '../../shared/api/kernel.js';
import { tokenBudget } from '../../electron/agents/turn-limits.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from '../../electron/providers/deadline.js';
import { PLACEHOLDER_KEY } from '../../electron/providers/keys.js';
import { fences, readDoc, ROOT } from '../support/docs-markdown.js';

const page = readDoc('local-models.md');

describe('docs/local-models.md', () => {
  it('the example agent file is accepted', () => {
    const [example] = fences(page).filter((f) => f.lang === 'json');
    expect(AgentProfileInput.safeParse(JSON.parse(example.body)).success).toBe(true);
  });
  it('NEXUS compacts at the budget the page gives', () => {
    const budget = tokenBudget({} as never, { agent: null } as never, undefined);
    expect(page).toContain(`**${budget.toLocaleString('en-US')}** estimated tokens`);
  });
  it("the model timeout and the placeholder key are the code's", () => {
    expect(page).toContain(`after **${DEFAULT_MODEL_TIMEOUT_MS / 1000} s**`);
    expect(page).toContain(`the placeholder \`${PLACEHOLDER_KEY}\``);
  });
  it('every provider error code the page names is one the providers raise', () => {
    const src = ['chat-completions.ts', 'anthropic.ts', 'deadline.ts', 'keys.ts', 'types.ts']
      .map((f) => readFileSync(join(ROOT, 'electron', 'providers', f), 'utf8'))
      .join('\n');
    const named = [...page.matchAll(/`(provider_[a-z_]+)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(2);
    for (const code of named) expect(src, code).toContain(`'${code}'`);
  });
});
