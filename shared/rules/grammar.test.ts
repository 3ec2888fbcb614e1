// The rule grammar (seed 000, "The rule grammar"), one test per clause, through evaluateCall.
import { describe, expect, it } from 'vitest';
import type { ApprovalRule, Mode, Origin } from '../types.js';
import { compileRules, evaluateCall, textAtPath } from './index.js';

const run = (rules: ApprovalRule[], tool: string, input: unknown = {}, mode: Mode = 'rules', origin: Origin = 'model') =>
  evaluateCall(compileRules(rules), mode, { tool, input, origin });
const allowed = (rules: ApprovalRule[], tool: string, input: unknown = {}) => run(rules, tool, input).outcome === 'granted';

describe('tool', () => {
  it('tool globs are ANCHORED: bash names bash alone', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', verdict: 'allow' }];
    expect(allowed(r, 'bash')).toBe(true);
    expect(allowed(r, 'bash2')).toBe(false);
    expect(allowed(r, 'mybash')).toBe(false);
  });
  it('tool is |-separated alternatives', () => {
    const r: ApprovalRule[] = [{ tool: 'write|edit', verdict: 'allow' }];
    expect(allowed(r, 'write')).toBe(true);
    expect(allowed(r, 'edit')).toBe(true);
    expect(allowed(r, 'read')).toBe(false);
    expect(allowed(r, 'write|edit')).toBe(false); // the alternatives split the pattern, never the name
  });
  it('memory_* names every memory tool', () => {
    const r: ApprovalRule[] = [{ tool: 'memory_*|ask', verdict: 'allow' }];
    expect(allowed(r, 'memory_save')).toBe(true);
    expect(allowed(r, 'memory_search')).toBe(true);
    expect(allowed(r, 'memory')).toBe(false);
    expect(allowed(r, 'ask')).toBe(true);
  });
  it('matching uses the resolved execution name: the kernel alias Bash is checked as bash', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', path: 'command', match: 'ls', verdict: 'allow' }];
    expect(run(r, 'Bash', { command: 'ls' })).toMatchObject({ outcome: 'granted', tool: 'bash', matched: [0] });
    expect(run(r, 'shell', { command: ['ls'] })).toMatchObject({ outcome: 'granted', tool: 'bash' });
  });
  it('matching uses the input keys after alias resolution: Claude Code Write file_path is read as path', () => {
    const r: ApprovalRule[] = [{ tool: 'write|edit', path: 'path', match: '*.env', verdict: 'deny' }];
    expect(run(r, 'Write', { file_path: 'app/.env', content: 'x' }, 'bypass')).toMatchObject({ outcome: 'failed', tool: 'write' });
    expect(run(r, 'Edit', { file_path: '.env' }, 'bypass')).toMatchObject({ outcome: 'failed', tool: 'edit' });
    expect(run(r, 'exec_command', {}, 'bypass')).toMatchObject({ outcome: 'granted', tool: 'bash' });
    expect(run([{ tool: 'bash', path: 'command', match: 'rm*', verdict: 'deny' }], 'exec_command', { cmd: 'rm -rf /' }, 'bypass')).toMatchObject({
      outcome: 'failed',
    });
  });
  it('bash__0123456789ab is checked as bash, keeping its runner target', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', verdict: 'allow' }];
    expect(run(r, 'bash__0123456789ab')).toMatchObject({ outcome: 'granted', granted_by: 'rule', tool: 'bash', runner: '0123456789ab' });
  });
  it('a runner route is exactly 12 lowercase hex digits', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', verdict: 'allow' }];
    expect(run(r, 'bash__0123456789AB')).toMatchObject({ outcome: 'failed', tool: 'bash__0123456789AB', runner: null });
    expect(run(r, 'bash__0123456789a')).toMatchObject({ outcome: 'failed', runner: null });
    expect(run(r, 'bash___0123456789ab')).toMatchObject({ tool: 'bash_', runner: '0123456789ab' });
  });
});

describe('verdict', () => {
  it('verdict is allow | ask | deny, each doing its column', () => {
    expect(run([{ tool: 'bash', verdict: 'allow' }], 'bash').outcome).toBe('granted');
    expect(run([{ tool: 'bash', verdict: 'ask' }], 'bash').outcome).toBe('parked');
    expect(run([{ tool: 'bash', verdict: 'deny' }], 'bash').outcome).toBe('failed');
  });
});

describe('path', () => {
  it('an absent path matches the tool as a whole', () => {
    expect(run([{ tool: 'bash', verdict: 'deny' }], 'bash', 'not even an object', 'bypass').outcome).toBe('failed');
  });
  it('path walks an object by key', () => {
    const r: ApprovalRule[] = [{ tool: 'edit', path: 'target.file', match: '*.env', verdict: 'deny' }];
    expect(run(r, 'edit', { target: { file: 'a/.env' } }, 'bypass').outcome).toBe('failed');
    expect(run(r, 'edit', { target: { file: 'a/.envrc' } }, 'bypass').outcome).toBe('granted');
  });
  it('path walks an array by integer index: edits.0.path', () => {
    const r: ApprovalRule[] = [{ tool: 'edit', path: 'edits.1.path', match: '*.env', verdict: 'deny' }];
    expect(run(r, 'edit', { edits: [{ path: 'ok' }, { path: '.env' }] }, 'bypass').outcome).toBe('failed');
    expect(run(r, 'edit', { edits: [{ path: '.env' }, { path: 'ok' }] }, 'bypass').outcome).toBe('granted');
  });
  it('anything else walks nowhere (a string, a number, a non-index into an array, a missing key)', () => {
    const r: ApprovalRule[] = [{ tool: 'x', path: 'a.b', verdict: 'deny' }];
    for (const input of [{ a: 'text' }, { a: 5 }, { a: null }, { a: ['q'] }, {}, [], 'a.b', null]) expect(run(r, 'x', input, 'bypass').outcome).toBe('granted');
    expect(textAtPath({ a: ['q'] }, 'a.length')).toBeNull();
    expect(textAtPath({ a: ['q'] }, 'a.00')).toBeNull();
    expect(textAtPath({ a: ['q'] }, 'a.-1')).toBeNull();
    expect(textAtPath({}, 'constructor')).toBeNull(); // own keys only: never the prototype
    expect(textAtPath({ a: { 0: 'zero' } }, 'a.0')).toBe('zero'); // an object is walked by key, digits included
  });
  it('path present without match: the rule matches when there is text at the path', () => {
    const r: ApprovalRule[] = [{ tool: 'write', path: 'content', verdict: 'allow' }];
    expect(allowed(r, 'write', { content: 'hello' })).toBe(true);
    expect(allowed(r, 'write', { content: '' })).toBe(true); // the empty string is text
    expect(allowed(r, 'write', { content: ['a', 1] })).toBe(true);
    expect(allowed(r, 'write', {})).toBe(false);
    expect(allowed(r, 'write', { content: { a: 1 } })).toBe(false);
    expect(allowed(r, 'write', { content: 7 })).toBe(false);
  });
});

describe('match', () => {
  const cmd = (match: string): ApprovalRule[] => [{ tool: 'bash', path: 'command', match, verdict: 'allow' }];
  it('match is an ANCHORED glob over the text at the path', () => {
    expect(allowed(cmd('ls'), 'bash', { command: 'ls' })).toBe(true);
    expect(allowed(cmd('ls'), 'bash', { command: 'ls -la' })).toBe(false);
  });
  it('a fragment needs a leading *', () => {
    expect(allowed(cmd('git push*'), 'bash', { command: 'cd repo && git push' })).toBe(false);
    expect(allowed(cmd('*git push*'), 'bash', { command: 'cd repo && git push' })).toBe(true);
  });
  it('? is one byte: a multi-byte UTF-8 character is several bytes', () => {
    expect(allowed(cmd('echo ?'), 'bash', { command: 'echo é' })).toBe(false);
    expect(allowed(cmd('echo ??'), 'bash', { command: 'echo é' })).toBe(true);
    expect(allowed(cmd('echo ?'), 'bash', { command: 'echo e' })).toBe(true);
  });
  it('* spans newlines', () => {
    expect(
      run([{ tool: 'bash', path: 'command', match: '*git push*--force*', verdict: 'deny' }], 'bash', { command: 'git push \\\n  --force' }, 'bypass').outcome,
    ).toBe('failed');
  });
  it('an array of scalars is joined by ONE space: ["rm", "-rf", "/"] reads rm -rf /', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', path: 'command', match: 'rm -rf /', verdict: 'deny' }];
    expect(run(r, 'bash', { command: ['rm', '-rf', '/'] }, 'bypass').outcome).toBe('failed');
    expect(textAtPath({ c: ['a', 1, true, false, null, 2.5] }, 'c')).toBe('a 1 true false null 2.5');
    expect(textAtPath({ c: [] }, 'c')).toBe('');
  });
  it('an array holding an object or a nested array has no text', () => {
    expect(textAtPath({ c: ['a', { b: 1 }] }, 'c')).toBeNull();
    expect(textAtPath({ c: ['a', ['b']] }, 'c')).toBeNull();
  });
  it('a number alone never matches (nor a boolean, null, an object, or absent)', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', path: 'timeout', match: '*', verdict: 'deny' }];
    for (const timeout of [5, true, null, { s: 5 }, undefined]) expect(run(r, 'bash', { timeout }, 'bypass').outcome).toBe('granted');
    expect(run(r, 'bash', { timeout: '5' }, 'bypass').outcome).toBe('failed');
  });
  it('under bypass a non-match is a grant', () => {
    const r: ApprovalRule[] = [{ tool: 'bash', path: 'command', match: 'rm*', verdict: 'deny' }];
    expect(run(r, 'bash', { command: 42 }, 'bypass')).toMatchObject({ outcome: 'granted', granted_by: 'mode', matched: [] });
  });
  it('glob only, no regex: .* and [] are literal', () => {
    expect(allowed(cmd('ls.*'), 'bash', { command: 'ls -la' })).toBe(false);
    expect(allowed(cmd('ls.*'), 'bash', { command: 'ls.anything' })).toBe(true);
    expect(allowed(cmd('[l]s'), 'bash', { command: 'ls' })).toBe(false);
  });
});

describe('reason', () => {
  it("reason is the denial's error.detail, the first 256 bytes", () => {
    const reason = 'x'.repeat(300);
    const d = run([{ tool: 'bash', verdict: 'deny', reason }], 'bash');
    expect(d).toMatchObject({ error: { detail: 'x'.repeat(256) } });
  });
  it('reason is cut on a UTF-8 character boundary (never half a character)', () => {
    const reason = `${'x'.repeat(255)}é and more`; // é would straddle bytes 256-257
    const d = run([{ tool: 'bash', verdict: 'deny', reason }], 'bash');
    expect(d.outcome === 'failed' && d.error.detail).toBe('x'.repeat(255));
    const emoji = '😀'.repeat(100); // 4 bytes each: 64 fit
    const e = run([{ tool: 'bash', verdict: 'deny', reason: emoji }], 'bash');
    expect(e.outcome === 'failed' && e.error.detail).toBe('😀'.repeat(64));
  });
  it('a deny without reason gives a detail naming the rule', () => {
    const d = run(
      [
        { tool: 'read', verdict: 'allow' },
        { tool: 'bash', verdict: 'deny' },
      ],
      'bash',
    );
    expect(d.outcome === 'failed' && d.error.detail).toBe('denied by approval rule 1 {"tool":"bash","verdict":"deny"}');
  });
});

describe('evaluation order', () => {
  it('evaluation collects every matching rule (matched lists them all, in order)', () => {
    const r: ApprovalRule[] = [
      { tool: 'bash', verdict: 'allow' },
      { tool: 'read', verdict: 'deny' },
      { tool: 'b*', verdict: 'ask' },
      { tool: '*', path: 'command', verdict: 'allow' },
    ];
    expect(run(r, 'bash', { command: 'ls' }).matched).toEqual([0, 2, 3]);
  });
  it("deny wins over ask and allow, whatever their order (an agent's deny is never overturned by a later allow)", () => {
    expect(
      run(
        [
          { tool: 'bash', verdict: 'allow' },
          { tool: 'bash', verdict: 'ask' },
          { tool: 'bash', verdict: 'deny' },
        ],
        'bash',
        {},
        'ask',
      ).outcome,
    ).toBe('failed');
    expect(
      run(
        [
          { tool: 'bash', verdict: 'deny' },
          { tool: '*', verdict: 'allow' },
        ],
        'bash',
      ).outcome,
    ).toBe('failed');
  });
  it('ask wins over allow', () => {
    expect(
      run(
        [
          { tool: 'bash', verdict: 'allow' },
          { tool: 'bash', verdict: 'ask' },
        ],
        'bash',
        {},
        'ask',
      ).outcome,
    ).toBe('parked');
    expect(
      run(
        [
          { tool: 'bash', verdict: 'ask' },
          { tool: 'bash', verdict: 'allow' },
        ],
        'bash',
        {},
        'rules',
      ).outcome,
    ).toBe('parked');
  });
  it("the first deny's reason rides", () => {
    const d = run(
      [
        { tool: 'bash', verdict: 'deny', reason: 'first' },
        { tool: 'bash', verdict: 'deny', reason: 'second' },
      ],
      'bash',
    );
    expect(d).toMatchObject({ error: { detail: 'first' }, matched: [0, 1] });
  });
});

describe('evaluation is total (fail closed)', () => {
  const c = compileRules([{ tool: 'bash', verdict: 'allow' }]);
  it('an unknown mode is refused', () => {
    expect(evaluateCall(c, 'yolo' as Mode, { tool: 'bash', input: {}, origin: 'model' })).toMatchObject({
      outcome: 'failed',
      error: { code: 'approval_denied' },
    });
  });
  it('a tool name that is not text is refused', () => {
    expect(evaluateCall(c, 'bypass', { tool: 5 as unknown as string, input: {}, origin: 'model' })).toMatchObject({ outcome: 'failed' });
  });
  it('rules that were not compiled are refused', () => {
    expect(evaluateCall({} as never, 'bypass', { tool: 'bash', input: {}, origin: 'model' })).toMatchObject({ outcome: 'failed' });
  });
  it('an input that throws when read is refused', () => {
    const r = compileRules([{ tool: 'bash', path: 'command', verdict: 'allow' }]);
    const input = {
      get command() {
        throw new Error('boom');
      },
    };
    expect(evaluateCall(r, 'bypass', { tool: 'bash', input, origin: 'model' })).toMatchObject({ outcome: 'failed', error: { code: 'approval_denied' } });
  });
  it('an unknown origin is read as a model row (the strict reading)', () => {
    expect(evaluateCall(c, 'rules', { tool: 'read', input: {}, origin: 'nobody' as Origin })).toMatchObject({ outcome: 'failed' });
  });
});

describe('evaluation reuses buffers safely', () => {
  it('texts of different lengths in turn (short, long, short) each match as themselves', () => {
    const c = compileRules([{ tool: 'bash', path: 'command', match: '*x', verdict: 'deny' }]);
    for (const command of ['ax', 'é'.repeat(3000) + 'x', 'b', 'a'.repeat(5000), 'cx', 'y'])
      expect(evaluateCall(c, 'bypass', { tool: 'bash', input: { command }, origin: 'model' }).outcome).toBe(command.endsWith('x') ? 'failed' : 'granted');
  });
  it('a re-entrant evaluation (an input getter evaluating again) does not disturb the outer one', () => {
    const c = compileRules([
      { tool: 'bash', path: 'command', match: 'outer', verdict: 'deny' },
      { tool: 'bash', path: 'other', verdict: 'ask' },
      { tool: 'bash', path: 'command', match: 'outer', verdict: 'allow' }, // reads the outer text after the inner call
    ]);
    const input = {
      command: 'outer',
      get other() {
        evaluateCall(c, 'bypass', { tool: 'bash', input: { command: 'inner!' }, origin: 'model' });
        return 'x';
      },
    };
    expect(evaluateCall(c, 'bypass', { tool: 'bash', input, origin: 'model' })).toMatchObject({ outcome: 'failed', matched: [0, 1, 2] });
  });
});
