// Gemini CLI and OpenCode: their tool names and keys read as NEXUS reads Claude Code's, their settings written and
// removed without touching the person's own keys, and the hook's answer in the top-level shape both read (Gemini
// ignores Claude's `hookSpecificOutput`, so a deny in that shape would let the call run).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientCall, geminiMcpName } from './client-calls.js';
import { mapToolCall } from './tool-map.js';
import { resolveToolName } from '../../shared/rules/tool-names.js';
import { planGeminiSettings, geminiHookCommands } from './connect/gemini-settings.js';
import { world } from '../../test/support/world.js';
import { opencodeHookCommands, opencodePlugin } from './connect/opencode-plugin.js';
import { dataDirOf, type HookSpec } from './connect/hook-command.js';
import { normalizeEvent, renderTopLevel } from './hook/gemini-opencode.js';
import { settingsFile } from './connect/plan.js';

const spec: HookSpec = {
  node: '/usr/bin/node',
  script: '/opt/nexus/dist/hook/nexus-hook.mjs',
  dataDir: "/home/a b/it's NEXUS",
  timeoutS: 900,
  whenDown: 'deny',
};
const resolved = (client: 'gemini' | 'opencode', name: string, input: unknown) => {
  const c = clientCall(client, name, input);
  return { wire: c.name, rule: resolveToolName(c.name).name, input: c.input };
};

describe('tool names', () => {
  it('Gemini: run_shell_command → bash, write_file → write, replace → edit, read_file → read, file_path kept for the alias', () => {
    expect(resolved('gemini', 'run_shell_command', { command: 'ls' })).toMatchObject({ rule: 'bash', input: { command: 'ls' } });
    expect(resolved('gemini', 'write_file', { file_path: '/p/a', content: 'x' })).toMatchObject({ wire: 'Write', rule: 'write' });
    expect(resolved('gemini', 'replace', { file_path: '/p/a', old_string: 'a', new_string: 'b' })).toMatchObject({ wire: 'Edit', rule: 'edit' });
    expect(resolved('gemini', 'read_file', { file_path: '/p/a' })).toMatchObject({ wire: 'Read', rule: 'read' });
    expect(resolved('gemini', 'glob', { pattern: '*' })).toMatchObject({ wire: 'glob' });
  });
  it("Gemini MCP names split as Gemini splits them: the server has no '_', the tool may", () => {
    expect(geminiMcpName('mcp_everything_echo')).toBe('mcp__everything__echo');
    expect(geminiMcpName('mcp_github_create_issue')).toBe('mcp__github__create_issue');
    expect(geminiMcpName('run_shell_command')).toBeNull();
    expect(clientCall('gemini', 'mcp_demo_get_x', { a: 1 })).toEqual({ name: 'mcp__demo__get_x', input: { a: 1 } });
  });
  it('OpenCode: camelCase filePath/oldString/newString/replaceAll read as file_path…; bash is already bash', () => {
    expect(clientCall('opencode', 'edit', { filePath: '/p/a', oldString: 'a', newString: 'b', replaceAll: false })).toEqual({
      name: 'Edit',
      input: { file_path: '/p/a', old_string: 'a', new_string: 'b', replace_all: false },
    });
    expect(resolved('opencode', 'write', { filePath: '/p/a', content: 'x' })).toMatchObject({ rule: 'write', input: { file_path: '/p/a' } });
    expect(resolved('opencode', 'read', { filePath: '/p/a', offset: 1 })).toMatchObject({ rule: 'read' });
    expect(resolved('opencode', 'bash', { command: 'ls', workdir: '/p' })).toMatchObject({ wire: 'bash', rule: 'bash' });
    expect(clientCall('opencode', 'write', 'not an object')).toEqual({ name: 'Write', input: 'not an object' });
  });
  it('Claude Code and Codex names pass through unchanged', () => {
    expect(clientCall('claude-code', 'write_file', { a: 1 })).toEqual({ name: 'write_file', input: { a: 1 } });
    expect(mapToolCall(clientCall('codex', 'Bash', { command: 'ls' }).name, { command: 'ls' })).toEqual({
      ok: true,
      calls: [{ tool: 'Bash', input: { command: 'ls' } }],
    });
  });
});

describe('Gemini settings.json', () => {
  const mine = { ui: { theme: 'GitHub' }, hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'my-check' }] }] } };
  const text = `${JSON.stringify(mine, null, 2)}\n`;
  it('connect adds BeforeTool and SessionEnd entries with the timeout in milliseconds; disconnect restores the file exactly', () => {
    const after = JSON.parse(planGeminiSettings(text, 'f', 'connect', spec));
    expect(after.ui).toEqual(mine.ui);
    expect(after.hooks.BeforeTool[0]).toEqual(mine.hooks.BeforeTool[0]);
    expect(after.hooks.BeforeTool[1].hooks[0]).toMatchObject({ type: 'command', timeout: 900_000 });
    expect(after.hooks.SessionEnd).toHaveLength(1);
    expect(dataDirOf(geminiHookCommands(JSON.stringify(after))[0]!)).toBe(spec.dataDir);
    const twice = planGeminiSettings(planGeminiSettings(text, 'f', 'connect', spec), 'f', 'connect', spec);
    expect(JSON.parse(twice).hooks.BeforeTool).toHaveLength(2);
    expect(planGeminiSettings(twice, 'f', 'disconnect', spec)).toBe(text);
  });
  it('a file that is not a JSON object is refused, never overwritten', () => {
    expect(() => planGeminiSettings('{ "ui": ', '/x/settings.json', 'connect', spec)).toThrow(/not valid JSON/);
  });
  it('the files: the project’s .gemini/settings.json, the user’s ~/.gemini/settings.json, OpenCode’s plugin folders', () => {
    const env = { HOME: '/home/u' };
    expect(settingsFile({ client: 'gemini', scope: 'project', project: '/p', env })).toBe('/p/.gemini/settings.json');
    expect(settingsFile({ client: 'gemini', scope: 'user', env })).toBe('/home/u/.gemini/settings.json');
    expect(settingsFile({ client: 'opencode', scope: 'project', project: '/p', env })).toBe('/p/.opencode/plugin/nexus-approval.js');
    expect(settingsFile({ client: 'opencode', scope: 'user', env })).toBe('/home/u/.config/opencode/plugin/nexus-approval.js');
    expect(() => settingsFile({ client: 'gemini', scope: 'project', project: 'rel', env })).toThrow(/absolute/);
  });
});

describe('OpenCode plugin', () => {
  it('names this data dir and the hook, and throws unless the answer is allow', () => {
    const text = opencodePlugin(spec);
    expect(dataDirOf(opencodeHookCommands(text)[0]!)).toBe(spec.dataDir);
    expect(text).toContain("'tool.execute.before'");
    expect(text).toContain("if (a.decision !== 'allow') throw new Error(a.reason);");
    expect(opencodePlugin({ ...spec, node: 'ELECTRON_RUN_AS_NODE=1 /opt/NEXUS/nexus' })).toContain('{"ELECTRON_RUN_AS_NODE":"1"}');
    expect(opencodeHookCommands('// someone else’s plugin')).toEqual([]);
  });
});

describe('the hook for Gemini and OpenCode', () => {
  it('reads BeforeTool as PreToolUse and answers at the top level', () => {
    expect(normalizeEvent('gemini', { hook_event_name: 'BeforeTool', tool_name: 'x' })).toEqual({ hook_event_name: 'PreToolUse', tool_name: 'x' });
    expect(normalizeEvent('claude-code', { hook_event_name: 'BeforeTool' })).toEqual({ hook_event_name: 'BeforeTool' });
    expect(JSON.parse(renderTopLevel({ decision: 'deny', reason: 'no' }))).toEqual({ decision: 'deny', reason: 'no' });
    expect(JSON.parse(renderTopLevel({ decision: 'allow', reason: 'ok' }))).toEqual({ decision: 'allow', reason: 'ok' });
  });
  it('the built hook, NEXUS not running: a top-level deny Gemini obeys (not the Claude shape it ignores)', async () => {
    const hook = join(import.meta.dirname, '..', '..', 'dist', 'hook', 'nexus-hook.mjs');
    const w = world();
    try {
      const dataDir = w.dir('gem');
      const ev = { session_id: 's1', cwd: tmpdir(), hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } };
      const r = spawnSync(process.execPath, [hook, '--client', 'gemini', '--data-dir', dataDir], { input: JSON.stringify(ev), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ decision: 'deny', reason: expect.stringContaining('NEXUS is not running') });
    } finally {
      await w.cleanup();
    }
  });
});
