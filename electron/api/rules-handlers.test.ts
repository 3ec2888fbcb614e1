// The rules methods through the real dispatcher (zod input validation, errors as values).
import { describe, expect, it } from 'vitest';
import { dispatch, type Handlers } from './dispatch.js';
import { rulesHandlers } from './rules-handlers.js';
import { methods } from '../../shared/api/index.js';

// Only the rules methods are called here; the rest of the table is not needed.
const call = (name: string, input: unknown) => dispatch(rulesHandlers as Handlers, name, input, { door: 'internal' });

describe('rulesHandlers', () => {
  it('rulesCheck: a valid list, with its warnings', async () => {
    const r = await call('rulesCheck', { rules: [{ tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow' }] });
    expect(r).toMatchObject({ ok: true, value: { valid: true, errors: [], warnings: [{ index: 0, kind: 'compound_command' }] } });
    if (r.ok) expect(methods.rulesCheck.output.parse(r.value)).toEqual(r.value);
  });

  it('rulesCheck: an invalid list is a value, valid false, every error listed', async () => {
    const r = await call('rulesCheck', { rules: [{ tool: 'bash', verdict: 'permit' }, { verdict: 'deny' }] });
    expect(r).toMatchObject({
      ok: true,
      value: {
        valid: false,
        errors: [
          { index: 0, key: 'verdict' },
          { index: 1, key: 'tool' },
        ],
        warnings: [],
      },
    });
  });

  it('rulesEval: decides like the stage, resolved name and runner included', async () => {
    const r = await call('rulesEval', {
      mode: 'rules',
      rules: [{ tool: 'bash', path: 'command', match: 'ls', verdict: 'allow' }],
      tool: 'bash__0123456789ab',
      input: { command: 'ls' },
    });
    expect(r).toEqual({ ok: true, value: { outcome: 'granted', granted_by: 'rule', error: null, tool: 'bash', runner: '0123456789ab', matched: [0] } });
    if (r.ok) expect(methods.rulesEval.output.parse(r.value)).toEqual(r.value);
  });

  it('rulesEval: no rules is the empty list; origin defaults to model', async () => {
    expect(await call('rulesEval', { mode: 'rules', tool: 'write' })).toMatchObject({
      ok: true,
      value: { outcome: 'failed', granted_by: null, error: { code: 'approval_denied', detail: 'no approval rule allows write' }, matched: [] },
    });
    expect(await call('rulesEval', { mode: 'rules', tool: 'write', origin: 'author' })).toMatchObject({
      ok: true,
      value: { outcome: 'granted', granted_by: 'origin' },
    });
  });

  it('rulesEval: invalid rules answer invalid_rules with the errors', async () => {
    const r = await call('rulesEval', { mode: 'ask', tool: 'bash', rules: [{ tool: 'bash', verdict: 'permit' }] });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'invalid_rules',
        message: 'The approval rules are invalid: rule 0: verdict must be allow, ask or deny (got "permit")',
        details: [{ path: 'rules.0.verdict', message: 'rule 0: verdict must be allow, ask or deny (got "permit")' }],
      },
    });
  });

  it('rulesEval: a rule problem and a field problem together are invalid_input, each at its path', async () => {
    const r = await call('rulesEval', { mode: 'yolo', tool: 'bash', rules: [{ tool: 'bash', verdict: 'allow', colour: 1 }, 7] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.details?.map((d) => d.path)).toEqual(['mode', 'rules.0.colour', 'rules.1']);
    expect(r.error.message).toMatch(/^mode: .*; rules\.0\.colour: rule 0: unknown key "colour"/);
  });

  it('rulesEval: a bad mode is refused at the door (invalid_input)', async () => {
    expect(await call('rulesEval', { mode: 'yolo', tool: 'bash' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
