import { describe, expect, it } from 'vitest';
import { escapeOf, requestEscapeOf } from './escape.js';

describe('escapeOf: a call that asks to leave the client sandbox', () => {
  it.each([
    ['Bash', { command: 'cat x', dangerouslyDisableSandbox: true }, /dangerouslyDisableSandbox/],
    ['exec_command', { cmd: 'ls', sandbox_permissions: 'require_escalated' }, /escalated/],
    ['shell', { command: ['ls'], with_escalated_permissions: true }, /escalated/],
    ['Bash', { command: 'claude --dangerously-skip-permissions -p hi' }, /--dangerously-skip-permissions/],
    ['Bash', { command: 'codex exec --dangerously-bypass-approvals-and-sandbox x' }, /--dangerously-bypass-approvals-and-sandbox/],
    ['Bash', { command: "sh -c 'x --dangerously-foo'" }, /--dangerously-foo/],
    ['shell', { command: ['codex', '--dangerously-bypass-approvals-and-sandbox'] }, /--dangerously-bypass/],
  ])('%s %j is an escape', (tool, input, sentence) => {
    expect(escapeOf(tool, input)).toMatch(sentence);
  });

  it.each([
    ['Bash', { command: 'ls -la' }],
    ['Bash', { command: 'ls', dangerouslyDisableSandbox: false }],
    ['Bash', { command: 'echo dangerously-not-a-flag' }],
    ['exec_command', { cmd: 'ls', sandbox_permissions: 'use_default' }],
    ['Read', { file_path: '/tmp/--dangerously-x' }],
    ['Bash', 'not an object'],
    ['Bash', null],
  ])('%s %j stays inside', (tool, input) => {
    expect(escapeOf(tool, input)).toBeNull();
  });
});

describe("requestEscapeOf: Codex's approval request is itself the escape (its PreToolUse input drops sandbox_permissions)", () => {
  it('a Codex PermissionRequest for a command or a patch is an escape', () => {
    expect(requestEscapeOf('codex', 'PermissionRequest', 'Bash')).toMatch(/outside its sandbox/);
    expect(requestEscapeOf('codex', 'PermissionRequest', 'apply_patch')).toMatch(/outside its sandbox/);
  });
  it.each([
    ['codex', 'PreToolUse', 'Bash'],
    ['codex', 'PermissionRequest', 'mcp__demo__echo'],
    ['claude-code', 'PermissionRequest', 'Bash'],
  ])('%s %s %s is not', (client, ev, tool) => expect(requestEscapeOf(client, ev, tool)).toBeNull());
});
