// Claude Code's own wall, as `nexus connect` writes it: every key set, the user's lists kept, and disconnect
// giving each key back its prior value (or the file byte for byte when it is untouched since connect).
import { describe, expect, it } from 'vitest';
import { addClaudeWall, claudeWallGap, removeClaudeWall } from './claude-wall.js';
import { planClaudeSettings } from './claude-settings.js';
import type { HookSpec } from './hook-command.js';

const D = '/home/a/.nexus';
const spec: HookSpec = { node: '/usr/bin/node', script: '/opt/nexus-hook.mjs', dataDir: D, timeoutS: 900, whenDown: 'deny' };
const mine = {
  sandbox: { enabled: false, allowUnsandboxedCommands: true, filesystem: { denyRead: ['~/secrets'] } },
  permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(ls)'] },
};

describe("Claude Code's wall", () => {
  it('connect sets every key, keeps the user list entries, and the wall then holds', () => {
    const { settings, prior } = addClaudeWall(mine, D);
    expect(settings).toMatchObject({
      sandbox: { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, network: { allowAllUnixSockets: false, allowUnixSockets: [] } },
    });
    expect((settings.sandbox as { filesystem: { denyRead: string[] } }).filesystem.denyRead).toEqual(['~/secrets', D]);
    expect((settings.permissions as { deny: string[] }).deny).toEqual(['Bash(rm:*)', `Read(/${D}/**)`, `Edit(/${D}/**)`, `Write(/${D}/**)`]);
    expect(claudeWallGap([settings], D)).toBeNull();
    expect(removeClaudeWall(settings, prior)).toEqual(mine);
  });

  it('names what is missing, reading user, project and local settings in order', () => {
    const { settings } = addClaudeWall({}, D);
    expect(claudeWallGap([settings, { sandbox: { enabled: false } }], D)).toBe('its sandbox is off');
    expect(claudeWallGap([settings, { sandbox: { allowUnsandboxedCommands: true } }], D)).toMatch(/unsandboxed/);
    expect(claudeWallGap([settings, { sandbox: { network: { allowUnixSockets: ['/x.sock'] } } }], D)).toMatch(/Unix sockets/);
    expect(claudeWallGap([{ ...settings, permissions: {} }], D)).toMatch(/Read, Edit and Write/);
    expect(claudeWallGap([{}], D)).toBe('its sandbox is off');
  });

  it('disconnect after the user edited the file: their edit stays, each wall key is given back', () => {
    const text = `${JSON.stringify(mine, null, 2)}\n`;
    const c = planClaudeSettings(text, 'f', 'connect', spec);
    const edited = JSON.stringify({ ...JSON.parse(c.after), model: 'opus' });
    const d = planClaudeSettings(edited, 'f', 'disconnect', spec, { file: 'f', before: text, after: c.after, prior: c.prior! });
    expect(JSON.parse(d.after)).toEqual({ ...mine, model: 'opus' });
  });

  it('disconnect keeps list entries the user wrote after connect, and takes back only NEXUS’s', () => {
    const c = planClaudeSettings('{}', 'f', 'connect', spec);
    const edited = JSON.stringify({ ...JSON.parse(c.after), permissions: { deny: ['Bash(rm:*)'] } });
    const d = planClaudeSettings(edited, 'f', 'disconnect', spec, { file: 'f', after: c.after, prior: c.prior! });
    expect(JSON.parse(d.after)).toEqual({ permissions: { deny: ['Bash(rm:*)'] } });
  });

  it('disconnect of an untouched file gives it back byte for byte', () => {
    const text = '{"permissions":{"deny":["Bash(rm:*)"]},   "x": 1}\n';
    const c = planClaudeSettings(text, 'f', 'connect', spec);
    expect(planClaudeSettings(c.after, 'f', 'disconnect', spec, { file: 'f', before: text, after: c.after, prior: c.prior! }).after).toBe(text);
  });
});
