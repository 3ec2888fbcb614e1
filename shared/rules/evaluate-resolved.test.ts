// The stage resolves a call's name and input once, when it records the row, and decides on that resolved value
// (evaluateResolved). It must decide exactly as the wire entry (evaluateCall) does for the same call, whole value
// for whole value, and stay total on what it cannot read.
import { describe, expect, it } from 'vitest';
import type { ApprovalRule, Mode, Origin } from '../types.js';
import { compileRules, evaluateCall, evaluateResolved } from './index.js';
import { resolveInput, resolveToolName } from './tool-names.js';

const RULES: ApprovalRule[] = [
  { tool: 'bash', path: 'command', match: 'rm *', verdict: 'deny', reason: 'no rm' },
  { tool: 'read', path: 'path', match: 'src/**', verdict: 'allow' },
  { tool: 'write', verdict: 'ask' },
  { tool: 'bash', path: 'command', match: 'git *', verdict: 'allow' },
  { tool: 'bash', origin: 'author', verdict: 'ask' },
];
const compiled = compileRules(RULES);

const CALLS: { tool: string; input: unknown; origin: Origin }[] = [
  { tool: 'Bash', input: { command: 'rm -rf /' }, origin: 'model' },
  { tool: 'bash', input: { command: 'git status' }, origin: 'model' },
  { tool: 'Read', input: { file_path: 'src/a.ts' }, origin: 'model' },
  { tool: 'read', input: { path: 'etc/passwd' }, origin: 'model' },
  { tool: 'Write', input: { file_path: 'x', content: 'y' }, origin: 'model' },
  { tool: 'exec_command', input: { cmd: 'git log' }, origin: 'model' },
  { tool: 'bash', input: { command: 'ls' }, origin: 'author' },
  { tool: 'bash', input: { command: 'ls' }, origin: 'kernel' },
  { tool: 'search__0123456789ab', input: { q: 'x' }, origin: 'model' },
];

describe('evaluateResolved decides as evaluateCall on the same call', () => {
  for (const mode of ['bypass', 'ask', 'rules'] as Mode[])
    for (const call of CALLS)
      it(`${mode} × ${call.origin} ${call.tool} ${JSON.stringify(call.input)}`, () => {
        const tool = resolveToolName(call.tool);
        const resolved = evaluateResolved(compiled, mode, { tool, input: resolveInput(tool, call.input), origin: call.origin });
        expect(resolved).toEqual(evaluateCall(compiled, mode, call));
      });
});

describe('evaluateResolved is total', () => {
  const tool = { name: 'bash', runner: null };
  it('rules that were not compiled are refused, naming the tool', () => {
    expect(evaluateResolved(RULES as never, 'ask', { tool, input: {}, origin: 'model' })).toEqual({
      outcome: 'failed',
      error: { code: 'approval_denied', detail: 'the approval rules were not compiled' },
      tool: 'bash',
      matched: [],
      runner: null,
    });
  });
  it('an unknown mode is refused', () => {
    expect(evaluateResolved(compiled, 'yolo' as Mode, { tool, input: {}, origin: 'model' })).toMatchObject({
      outcome: 'failed',
      error: { detail: 'unknown approval mode "yolo"' },
    });
  });
  it('an input that throws when read is refused, never granted', () => {
    const input = {
      get command(): string {
        throw new Error('boom');
      },
    };
    expect(evaluateResolved(compiled, 'bypass', { tool, input, origin: 'model' })).toMatchObject({
      outcome: 'failed',
      error: { detail: 'the approval stage could not read this call' },
    });
  });
});
