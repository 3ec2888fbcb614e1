// Codex's own wall, as `nexus connect codex` writes it into config.toml: NEXUS's permission profile (workspace
// writes, no network, the data dir "none"), the person's sandbox_mode / approval_policy set aside and given
// back by disconnect; and the check of the policy a session's turn really runs under (its rollout's turn_context).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { apply, plan, type ConnectTarget } from './plan.js';
import { planCodexConfig } from './codex-config.js';
import { SET_ASIDE, codexWallGap, type TurnContext } from './codex-wall.js';
import type { HookSpec } from './hook-command.js';
import { world } from '../../../test/support/world.js';

const D = '/home/a/.nexus';
const spec: HookSpec = { node: '/usr/bin/node', script: '/opt/nexus-hook.mjs', dataDir: D, timeoutS: 900, whenDown: 'deny' };
const mine = `# my codex settings\nmodel = "gpt-5.5"\nsandbox_mode = "danger-full-access"\napproval_policy = "never"\n\n[sandbox_workspace_write]\nnetwork_access = true\n`;
type Parsed = { default_permissions?: string; sandbox_mode?: string; approval_policy?: string; permissions: Record<string, Record<string, unknown>> };

describe("Codex's wall in config.toml", () => {
  it("connect selects NEXUS's profile (workspace, no network, the data dir and its real path none) and sets the person's overriding keys aside", () => {
    const after = planCodexConfig(mine, 'f', 'connect', spec, {}, [D, '/real/nexus']);
    const t = parse(after) as Parsed;
    expect(t.default_permissions).toBe('nexus');
    expect(t.sandbox_mode).toBeUndefined();
    expect(t.approval_policy).toBe('on-request');
    expect(t.permissions.nexus).toEqual({ extends: ':workspace', filesystem: { [D]: 'none', '/real/nexus': 'none' }, network: { enabled: false } });
    expect(after).toContain(`${SET_ASIDE}sandbox_mode = "danger-full-access"`);
    expect(after).toContain(`${SET_ASIDE}approval_policy = "never"`);
  });

  it('a read-only person stays read-only; a key in a table (not top level) is left alone', () => {
    const ro = 'sandbox_mode = "read-only"\n[profiles.deep]\nsandbox_mode = "danger-full-access"\n';
    const after = planCodexConfig(ro, 'f', 'connect', spec);
    expect((parse(after) as Parsed).permissions.nexus!.extends).toBe(':read-only');
    expect(after).toContain('[profiles.deep]\nsandbox_mode = "danger-full-access"\n');
  });

  it('disconnect puts every set-aside line back, byte for byte, also after a reconnect', () => {
    const after = planCodexConfig(mine, 'f', 'connect', spec);
    expect(planCodexConfig(after, 'f', 'disconnect', spec)).toBe(mine);
    expect(planCodexConfig(planCodexConfig(after, 'f', 'connect', { ...spec, timeoutS: 60 }), 'f', 'disconnect', spec)).toBe(mine);
  });

  it("disconnect after the person edited the file keeps their edit; an untouched file comes back from connect's record", () => {
    const after = planCodexConfig(mine, 'f', 'connect', spec);
    const edited = after.replace('model = "gpt-5.5"', 'model = "gpt-5.6"');
    expect(planCodexConfig(edited, 'f', 'disconnect', spec, {}, [D], { file: 'f', before: mine, after, prior: [] })).toBe(mine.replace('5.5', '5.6'));
    const odd = 'model = "x"'; // no final newline: only the record gives it back exactly
    const c = planCodexConfig(odd, 'f', 'connect', spec);
    expect(planCodexConfig(c, 'f', 'disconnect', spec, {}, [D], { file: 'f', before: odd, after: c, prior: [] })).toBe(odd);
  });

  it('refuses what would leave the wall open: a profile of the same name, a key NEXUS cannot set aside', () => {
    expect(() => planCodexConfig('[permissions.nexus]\nextends = ":read-only"\n', 'f', 'connect', spec)).toThrow(
      /already has a permission profile named "nexus"/,
    );
    expect(() => planCodexConfig('"sandbox_mode" = "danger-full-access"\n', 'f', 'connect', spec)).toThrow(/could not set your sandbox_mode/);
  });
});

/** A turn_context as Codex 0.169 records it under NEXUS's profile (captured from a real run, trimmed). */
const walled = (): TurnContext => ({
  turn_id: 't1',
  approval_policy: 'on-request',
  sandbox_policy: { type: 'workspace-write', network_access: false },
  file_system_sandbox_policy: {
    kind: 'restricted',
    entries: [
      { path: { type: 'path', path: D }, access: 'deny' },
      { path: { type: 'special' }, access: 'read' },
      { path: { type: 'path', path: '/home/a/proj' }, access: 'write' },
    ],
  },
  permission_profile: { network: 'restricted' },
});

describe("the check of a Codex session's policy", () => {
  it('holds under NEXUS profile', () => expect(codexWallGap(walled(), [D])).toBeNull());
  it.each<[string, (c: TurnContext) => void, RegExp]>([
    [
      'danger-full-access (--dangerously-bypass-approvals-and-sandbox, -s)',
      (c) => (c.sandbox_policy = { type: 'danger-full-access' }),
      /sandbox is off \(danger-full-access\)/,
    ],
    ['network_access = true', (c) => (c.sandbox_policy.network_access = true), /network/],
    ['network enabled in the profile', (c) => (c.permission_profile = { network: 'enabled' }), /network/],
    [
      'sandbox_mode back (no deny entry)',
      (c) => (c.file_system_sandbox_policy!.entries = c.file_system_sandbox_policy!.entries!.slice(1)),
      /data dir is readable/,
    ],
    [
      'a writable root inside the data dir',
      (c) => c.file_system_sandbox_policy!.entries!.push({ path: { type: 'path', path: `${D}/x` }, access: 'write' }),
      /data dir is readable/,
    ],
    ['no file restriction', (c) => (c.file_system_sandbox_policy = { kind: 'unrestricted' }), /does not restrict files/],
  ])('names the gap: %s', (_what, change, gap) => {
    const c = walled();
    change(c);
    expect(codexWallGap(c, [D])).toMatch(gap);
  });
  it('the real path must be out of reach too', () => expect(codexWallGap(walled(), [D, '/real/nexus'])).toMatch(/data dir is readable/));
});

describe('nexus connect codex / disconnect codex (apply, on real files)', () => {
  const codexHome = () => {
    const w = world();
    const root = w.dir('codexwall');
    const env = { HOME: join(root, 'home'), CODEX_HOME: join(root, 'codex'), NEXUS_HOOK_SCRIPT: '/opt/nexus/dist/hook/nexus-hook.mjs' };
    const t: ConnectTarget = { client: 'codex', scope: 'user', dataDir: join(root, 'data'), env, codexBin: join(root, 'no-codex') };
    return { w, root, t, file: join(env.CODEX_HOME, 'config.toml') };
  };

  it('says what it wrote and why; a file connect created is deleted by disconnect', async () => {
    const { w, t, file } = codexHome();
    try {
      const c = await apply(t, 'connect');
      expect(c.notes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^default_permissions = "nexus": .*replaces sandbox_mode/),
          expect.stringMatching(/filesystem\..* = "none": NEXUS's data dir .* neither readable nor writable/),
          expect.stringMatching(/network\.enabled = false: no network/),
          expect.stringMatching(/^approval_policy = "on-request": .*escape/),
          expect.stringMatching(/Codex was not found/),
        ]),
      );
      expect(c.notes.join('\n')).not.toMatch(/config profile/);
      expect(existsSync(file)).toBe(true);
      await apply(t, 'disconnect');
      expect(existsSync(file)).toBe(false);
    } finally {
      await w.cleanup();
    }
  });

  it("the person's file comes back byte for byte, odd layout and all; edited since connect, their edit stays and their lines come back", async () => {
    const { w, root, t, file } = codexHome();
    try {
      mkdirSync(join(root, 'codex'));
      const odd = 'sandbox_mode   =   "workspace-write"\n\n\n[features]\nplugins = false'; // no final newline
      writeFileSync(file, odd);
      expect(plan(t, 'connect').notes.join('\n')).not.toMatch(/config profile/);
      writeFileSync(file, `profile = "fast"\n[profiles.fast]\nsandbox_mode = "danger-full-access"\n`);
      expect(plan(t, 'connect').notes).toContainEqual(expect.stringMatching(/config profile "fast" sets sandbox_mode.*NEXUS refuses Codex's calls/));
      writeFileSync(file, odd);
      await apply(t, 'connect');
      expect(readFileSync(file, 'utf8')).toContain(`${SET_ASIDE}sandbox_mode   =   "workspace-write"`);
      await apply(t, 'disconnect');
      expect(readFileSync(file, 'utf8')).toBe(odd);
      await apply(t, 'connect');
      writeFileSync(file, readFileSync(file, 'utf8').replace('plugins = false', 'plugins = true'));
      await apply(t, 'disconnect');
      const back = readFileSync(file, 'utf8');
      expect(back).toMatch(/^sandbox_mode {3}= {3}"workspace-write"$/m);
      expect(back).toContain('plugins = true');
      expect(back).not.toContain('nexus');
    } finally {
      await w.cleanup();
    }
  });
});
