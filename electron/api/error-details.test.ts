// A refused call says what is wrong twice: one line a person reads (`message`), and each problem at the path of
// its field (`details`), so a form can put each next to its field without taking the line apart. Real NEXUS
// (turns + governance on a fresh SQLite data dir), every call through dispatch as a door makes it.
import { afterEach, describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../../test/support/scenarios.js';
import { dispatch } from './dispatch.js';
import { ApiError, type MethodName } from '../../shared/api/index.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

/** The error of a call that must fail; it must have the contract's ApiError shape. */
async function refused(name: MethodName, input: unknown) {
  const r = await dispatch(s!.nexus.handlers, name, input, { door: 'internal' });
  if (r.ok) throw new Error(`${name} was expected to fail`);
  expect(ApiError.strict().parse(r.error)).toEqual(r.error);
  return r.error;
}

const model = { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' };

describe('errors carry details [{ path, message }]', () => {
  it('every problem of an input at its path, and the one-line message still leads each with its path', async () => {
    s = await scenario({});
    const e = await refused('agentsSave', {
      name: 'bad name',
      model: { ...model, baseURL: 'not a url' },
      mode: 'ask',
      approval_rules: [
        { tool: 'bash', verdict: 'allow' },
        { tool: 'bash', verdict: 'maybe' },
      ],
      lifecycle_hooks: { stop: [{ tool: '' }] },
    });
    expect(e.code).toBe('invalid_input');
    expect(e.details?.map((d) => d.path)).toEqual(['name', 'model.baseURL', 'approval_rules.1.verdict', 'lifecycle_hooks.stop.0.tool']);
    expect(e.details?.[2].message).toBe('rule 1: verdict must be allow, ask or deny (got "maybe")');
    expect(e.message).toContain('model.baseURL: Invalid URL');
    expect(e.message).toContain('approval_rules.1.verdict: rule 1: verdict must be allow, ask or deny');
    expect(e.message).toContain('lifecycle_hooks.stop.0.tool: a hook names a tool');
    expect(await dispatch(s.nexus.handlers, 'agentsList', {}, { door: 'internal' })).toEqual({ ok: true, value: [] });
  });

  it('rules alone keep their domain code and words (what the CLI and the window have always shown)', async () => {
    s = await scenario({});
    const e = await refused('agentsSave', { name: 'a', model, mode: 'ask', approval_rules: [{ tool: 'bash', verdict: 'allow', colour: 'red' }] });
    expect(e).toEqual({
      code: 'invalid_rules',
      message: 'approval_rules are invalid: rule 0: unknown key "colour": a rule has at most the keys tool, verdict, path, match, reason and origin',
      details: [
        { path: 'approval_rules.0.colour', message: 'rule 0: unknown key "colour": a rule has at most the keys tool, verdict, path, match, reason and origin' },
      ],
    });
    const list = await refused('runsCreate', { mode: 'ask', rules: { tool: 'bash' } });
    expect(list).toMatchObject({
      code: 'invalid_rules',
      message: 'The approval rules are invalid: approval rules must be a JSON array of rule objects (got an object)',
      details: [{ path: 'rules' }],
    });
    const extra = await refused('runsStart', { agent: 'a', prompt: 'Go.', extra_rules: [{ verdict: 'deny' }] });
    expect(extra).toMatchObject({
      code: 'invalid_rules',
      message: expect.stringMatching(/^extra_rules are invalid: rule 0: tool is required/),
      details: [{ path: 'extra_rules.0.tool' }],
    });
  });

  it('hooks alone are invalid_hooks; a bad setting, a relative workspace and a whole input that is not an object say where', async () => {
    s = await scenario({});
    const hooks = await refused('agentsSave', { name: 'a', model, mode: 'ask', lifecycle_hooks: { stop_hook: [], stop: [{ tool: 'bash', timeout_s: 0 }] } });
    expect(hooks.code).toBe('invalid_hooks');
    expect(hooks.details).toEqual([
      { path: 'lifecycle_hooks.stop.0.timeout_s', message: 'must be a positive number of seconds' },
      { path: 'lifecycle_hooks', message: 'unknown event "stop_hook" (one of turn_start, pre_compact, post_compact, stop)' },
    ]);
    const setting = await refused('settingsSet', { key: 'orchestration.maxDepth', value: 0 });
    expect(setting).toEqual({
      code: 'invalid_setting',
      message: 'orchestration.maxDepth must be between 1 and 100 (got 0).',
      details: [{ path: 'value', message: 'orchestration.maxDepth must be between 1 and 100 (got 0).' }],
    });
    expect(await refused('runsCreate', { mode: 'ask', workspace: 'relative/dir' })).toMatchObject({ code: 'invalid_input', details: [{ path: 'workspace' }] });
    expect(await refused('runsShow', 'run_x')).toMatchObject({
      code: 'invalid_input',
      details: [{ path: 'input' }],
      message: expect.stringMatching(/^input: /),
    });
  });

  it('a failure without per-field problems has no details', async () => {
    s = await scenario({});
    expect(await refused('runsShow', { id: 'run_nope' })).toEqual({ code: 'not_found', message: 'No run "run_nope".' });
  });
});
