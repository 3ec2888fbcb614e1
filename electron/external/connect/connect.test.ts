// Connect and disconnect keep the person's own settings: every other key (Claude Code's JSON), every comment
// and byte (Codex's TOML, edited as one marked block), and refuse a file they cannot read rather than
// overwrite it. The CLI prints the change before writing; Codex's hooks get the trust Codex itself computes.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync, execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { planClaudeSettings } from './claude-settings.js';
import { BLOCK_BEGIN, planCodexConfig } from './codex-config.js';
import { TOP_END } from './codex-wall.js';
import { dataDirOf, hookCommand, type HookSpec } from './hook-command.js';
import { hookNoKernelThere, hookSocketPath } from '../hook/ask-kernel.js';
import { noKernelThere, socketPath } from '../../doors/socket-path.js';
import { mapToolCall } from '../tool-map.js';
import { world, type World } from '../../../test/support/world.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const spec: HookSpec = {
  node: '/usr/bin/node',
  script: '/opt/nexus/dist/hook/nexus-hook.mjs',
  dataDir: "/home/a b/it's NEXUS",
  timeoutS: 900,
  whenDown: 'deny',
};

describe('Claude Code settings.json', () => {
  const mine = {
    model: 'opus',
    permissions: { allow: ['Bash(ls)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-linter' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
    },
    env: { A: '1' },
  };
  const text = JSON.stringify(mine, null, 2) + '\n';

  it('connect adds a PreToolUse and a PermissionRequest entry and keeps every other key', () => {
    const after = JSON.parse(planClaudeSettings(text, 'f', 'connect', spec).after);
    expect(after.model).toBe('opus');
    expect(after.permissions.allow).toEqual(mine.permissions.allow);
    expect(after.env).toEqual(mine.env);
    expect(after.hooks.Stop).toEqual(mine.hooks.Stop);
    expect(after.hooks.PreToolUse[0]).toEqual(mine.hooks.PreToolUse[0]);
    expect(after.hooks.PreToolUse[1]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: hookCommand('claude-code', spec), timeout: 900 }] });
    expect(after.hooks.PermissionRequest).toHaveLength(1);
  });
  it('connect twice is one entry; disconnect with the record restores the file exactly', () => {
    const once = planClaudeSettings(text, 'f', 'connect', spec);
    const rec = { file: 'f', after: once.after, prior: once.prior! };
    const twice = planClaudeSettings(once.after, 'f', 'connect', { ...spec, timeoutS: 60 }, rec);
    expect(JSON.parse(twice.after).hooks.PreToolUse).toHaveLength(2);
    expect(twice.prior).toEqual(once.prior);
    expect(planClaudeSettings(twice.after, 'f', 'disconnect', spec, { ...rec, after: twice.after }).after).toBe(text);
  });
  it('no file: connect creates one; a file that is not a JSON object is refused', () => {
    expect(JSON.parse(planClaudeSettings(null, 'f', 'connect', spec).after).hooks.PreToolUse).toHaveLength(1);
    expect(() => planClaudeSettings('{ "model": ', '/x/settings.json', 'connect', spec)).toThrow(/not valid JSON.*will not rewrite/);
    expect(() => planClaudeSettings('[1]', '/x/settings.json', 'connect', spec)).toThrow(/does not hold a JSON object/);
  });
  it('the hook command survives quoting, and names its data dir', () => {
    const cmd = hookCommand('claude-code', spec);
    expect(cmd).toBe(`/usr/bin/node /opt/nexus/dist/hook/nexus-hook.mjs --client claude-code --data-dir '/home/a b/it'\\''s NEXUS' --timeout-s 900`);
    expect(dataDirOf(cmd)).toBe(spec.dataDir);
    const out = execFileSync('sh', ['-c', `printf '%s\\n' ${cmd.split(' --client')[1]!.replace(/^/, '--client')}`], { encoding: 'utf8' });
    expect(out.split('\n')).toContain(spec.dataDir);
  });
});

describe('Codex config.toml', () => {
  const mine = `# my settings, with comments\nmodel = "gpt-5.5"   # the model\n\n[features]\nplugins = false\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "my-linter"\n`;
  it("connect puts the wall's top-level keys first and one marked block after the person's hook (group 1) with its trust; disconnect restores every byte", () => {
    const after = planCodexConfig(mine, 'f', 'connect', spec, { '/c/config.toml:pre_tool_use:1:0': 'sha256:ab' });
    expect(after).toContain(`${TOP_END}\n\n${mine}\n${BLOCK_BEGIN}`);
    const t = parse(after) as {
      model: string;
      hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string; timeout?: number }> }>; state: Record<string, { trusted_hash: string }> };
    };
    expect(t.model).toBe('gpt-5.5');
    expect(t.hooks.PreToolUse.map((g) => g.matcher)).toEqual(['Bash', '*']);
    expect(t.hooks.PreToolUse[1]!.hooks[0]).toMatchObject({ command: hookCommand('codex', spec), timeout: 900 });
    expect(t.hooks.state['/c/config.toml:pre_tool_use:1:0']).toEqual({ trusted_hash: 'sha256:ab' });
    expect(planCodexConfig(after, 'f', 'disconnect', spec)).toBe(mine);
    expect(planCodexConfig(planCodexConfig(after, 'f', 'connect', spec), 'f', 'disconnect', spec)).toBe(mine);
  });
  it('a file that is not TOML, or an inline hooks list, is refused', () => {
    expect(() => planCodexConfig('model = ', '/c/config.toml', 'connect', spec)).toThrow(/not valid TOML/);
    expect(() => planCodexConfig('[hooks]\nPreToolUse = "x"\n', '/c/config.toml', 'connect', spec)).toThrow(/not a list of tables/);
  });
});

describe('the hook process', () => {
  beforeAll(() => void execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' }), 60_000);
  const HOOK = join(ROOT, 'dist', 'hook', 'nexus-hook.mjs');
  const hook = (args: string[], stdin: string) => spawnSync(process.execPath, [HOOK, ...args], { input: stdin, encoding: 'utf8' });
  const ev = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
  const nowhere = join(tmpdir(), 'nexus-no-kernel-here');

  it('finds the same socket as the kernel, and reads the same errors as "no kernel there" as the CLI does', () => {
    for (const p of ['linux', 'win32'] as const) expect(hookSocketPath('/d/NEXUS', p)).toBe(socketPath('/d/NEXUS', p));
    for (const code of ['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR', 'EACCES', 'EPERM', 'ETIMEDOUT', 'EPIPE', undefined]) {
      const e = Object.assign(new Error('x'), { code });
      expect([code, hookNoKernelThere(e)]).toEqual([code, noKernelThere(e)]);
    }
  });
  it('a data dir gone with a file left in its place (a client sandbox masks a hidden path so) is "not running" too', () => {
    const gone = world();
    try {
      const file = join(gone.dir('gone'), 'data');
      writeFileSync(file, '', { mode: 0o444 });
      const deny = hook(['--client', 'codex', '--data-dir', file], ev);
      expect(JSON.parse(deny.stdout).hookSpecificOutput.permissionDecisionReason).toContain('NEXUS is not running');
    } finally {
      void gone.cleanup();
    }
  });
  it('no kernel: deny with the sentence (default), or hand back to the client (--when-down ask)', () => {
    const deny = hook(['--client', 'codex', '--data-dir', nowhere], ev);
    expect(deny.status).toBe(0);
    expect(JSON.parse(deny.stdout).hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('NEXUS is not running'),
    });
    const askClaude = hook(['--client', 'claude-code', '--data-dir', nowhere, '--when-down', 'ask'], ev);
    expect(JSON.parse(askClaude.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(hook(['--client', 'codex', '--data-dir', nowhere, '--when-down', 'ask'], ev).stdout).toBe('');
    const pr = hook(['--client', 'codex', '--data-dir', nowhere], ev.replace('PreToolUse', 'PermissionRequest'));
    expect(JSON.parse(pr.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: expect.stringContaining('NEXUS is not running') },
    });
  });
  it('bad arguments or input that is not JSON: exit 2 (a blocking error in both clients)', () => {
    expect(hook(['--client', 'cursor', '--data-dir', nowhere], ev).status).toBe(2);
    expect(hook(['--client', 'codex', '--data-dir', nowhere], 'not json').status).toBe(2);
  });
});

describe('tool names', () => {
  it('Bash, Read, Write and Edit pass to the kernel aliases; a patch becomes one call per path it writes', () => {
    expect(mapToolCall('Bash', { command: 'ls' })).toEqual({ ok: true, calls: [{ tool: 'Bash', input: { command: 'ls' } }] });
    expect(mapToolCall('mcp__demo__echo', { text: 'x' })).toEqual({ ok: true, calls: [{ tool: 'mcp__demo__echo', input: { text: 'x' } }] });
    const m = mapToolCall('apply_patch', {
      command: '*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** Delete File: c.ts\n*** End Patch',
    });
    expect(m.ok && m.calls.map((c) => [c.tool, (c.input as { path: string }).path])).toEqual([
      ['edit', 'a.ts'],
      ['write', 'b.ts'],
      ['edit', 'c.ts'],
    ]);
    expect(mapToolCall('apply_patch', { command: 'nonsense' }).ok).toBe(false);
  });
});

describe('nexus connect / disconnect (the CLI, as a person runs it)', () => {
  let w: World;
  let home: string;
  beforeAll(() => void execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' }), 60_000);
  beforeEach(() => {
    w = world();
    home = w.dir('connect');
  });
  afterEach(() => w.cleanup());
  const nexus = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'bin', 'nexus.cjs'), ...args, '--data-dir', join(home, 'data')], {
      env: { PATH: process.env.PATH, HOME: home },
      encoding: 'utf8',
    });

  it('claude-code --user: shows the diff first, writes, and disconnect leaves the file as it was', () => {
    mkdirSync(join(home, '.claude'));
    const file = join(home, '.claude', 'settings.json');
    const before = `{\n  "theme": "dark",\n  "permissions": {\n    "deny": [\n      "Bash(rm:*)"\n    ]\n  }\n}\n`;
    writeFileSync(file, before);
    const dry = nexus('connect', 'claude-code', '--user', '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`${file} will change:`);
    expect(dry.stdout).toMatch(/^\+.*"PreToolUse"/m);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const r = nexus('connect', 'claude-code', '--user');
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(file, 'utf8'));
    expect(s.theme).toBe('dark');
    expect(s.hooks.PreToolUse[0].hooks[0].command).toContain('nexus-hook.mjs --client claude-code');
    expect(nexus('disconnect', 'claude-code', '--user').status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
  it('refuses a broken settings file without touching it', () => {
    mkdirSync(join(home, '.claude'));
    const file = join(home, '.claude', 'settings.json');
    writeFileSync(file, '{ broken');
    const r = nexus('connect', 'claude-code');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
  });
  it('usage errors exit 2', () => {
    expect(nexus('connect').status).toBe(2);
    expect(nexus('connect', 'cursor').status).toBe(2);
    expect(nexus('connect', 'codex', '--timeout', '5').status).toBe(2);
  });
});
