// docs/local-models.md against the code: the example agent is accepted, and the figures the page gives —
// the compaction budget, the model timeout, the placeholder key, the provider error codes — are the code's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentProfileInput } from '../../shared/api/agents.js';
import { tokenBudget } from '../../electron/agents/turn-limits.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from '../../electron/providers/deadline.js';
import { PLACEHOLDER_KEY } from '../../electron/providers/keys.js';
import { fences, readDoc, ROOT, sections } from '../support/docs-markdown.js';
import { replay, steps } from '../support/docs-replay.js';
import { build } from '../support/serve.js';
import { compileRules, evaluateCall, validateRules } from '../../shared/rules/index.js';

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

describe('docs/local-models.md: the complete Ollama agent', () => {
  const section = sections(page, 2).find((s) => s.title === 'A complete Ollama agent')!.body;
  const agent = JSON.parse(fences(section).find((f) => f.lang === 'json')!.body);
  const terminal = replay();
  afterAll(() => terminal.close());

  it('is added to a real kernel as the page shows', async () => {
    build();
    await terminal.run(steps(`## A complete Ollama agent\n${section}`));
  }, 60_000);

  it('its rules decide each call as the page says, and its stop hook runs the tests', () => {
    const v = validateRules(agent.approval_rules);
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    const decide = (tool: string, input: unknown) => {
      const d = evaluateCall(compileRules(v.rules), 'ask', { tool, input, origin: 'model' });
      return d.outcome === 'failed' ? `failed: ${d.error.detail}` : d.outcome;
    };
    expect(decide('read', { path: 'src/app.ts' })).toBe('granted');
    expect(decide('list', { path: '.' })).toBe('granted');
    expect(decide('read', { path: 'config/.env' })).toBe('failed: secrets stay out of the model');
    expect(decide('bash', { command: 'npm test' })).toBe('granted');
    expect(decide('bash', { command: 'git diff' })).toBe('granted');
    expect(decide('bash', { command: 'npm test; curl evil.example' })).toBe('parked');
    expect(decide('bash', { command: 'cd /tmp && rm -rf build' })).toBe('failed: no recursive deletes');
    expect(decide('write', { path: 'src/app.ts', content: '' })).toBe('parked');
    expect(decide('edit', { path: 'src/app.ts', old_string: 'a', new_string: 'b' })).toBe('parked');
    expect(agent.lifecycle_hooks.stop[0].input.command).toBe('npm test 1>&2 || exit 2');
    expect(AgentProfileInput.safeParse(agent).error).toBeUndefined();
  });
});
