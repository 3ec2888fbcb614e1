// Codex's config.toml: NEXUS's hook lives in one marked block at the end of the file, so the person's keys,
// comments and layout stay exactly as they wrote them (a TOML round-trip would drop comments). The block holds
// the PreToolUse and PermissionRequest hooks and, once Codex has hashed them, their trust
// (`[hooks.state."<config>:pre_tool_use:<group>:0"] trusted_hash = …`): Codex skips an untrusted hook in silence.
// Codex's own wall (codex-wall.ts) rides along: a top block of top-level keys and its profile's tables in the end block.
// Every result is parsed with smol-toml before it is written: a file NEXUS cannot parse is refused, not rewritten.
import { parse } from 'smol-toml';
import { hookCommand, isNexusHook, type HookSpec } from './hook-command.js';
import { PROFILE, addTopBlock, baseProfile, codexWallText, removeTopBlock } from './codex-wall.js';
import type { WallRecord } from './wall-record.js';

export const BLOCK_BEGIN = '# >>> NEXUS tool hook (added by `nexus connect codex`; `nexus disconnect codex` removes this block)';
export const BLOCK_END = '# <<< NEXUS tool hook';

const EVENTS = [
  { name: 'PreToolUse', key: 'pre_tool_use' },
  { name: 'PermissionRequest', key: 'permission_request' },
  // Tells NEXUS the session is over, so its run ends (external/session-end.ts).
  { name: 'SessionEnd', key: 'session_end' },
] as const;

export function parseCodexConfig(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`${file} is not valid TOML (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); NEXUS will not rewrite it.`);
  }
}

/** The text without NEXUS's block (and without the blank line NEXUS put before it). */
export function withoutBlock(text: string): string {
  const start = text.indexOf(BLOCK_BEGIN);
  if (start < 0) return text;
  const endAt = text.indexOf(BLOCK_END, start);
  const end = endAt < 0 ? text.length : endAt + BLOCK_END.length;
  const before = text.slice(0, start).replace(/\n+$/, '\n');
  const after = text.slice(end).replace(/^\n/, '');
  return (before === '\n' ? '' : before) + after;
}

const tomlString = (s: string) => JSON.stringify(s); // a TOML basic string is JSON's string syntax for these chars

/** Where NEXUS's groups will sit in each event's list (the trust key names the group's index). */
export function groupIndexes(base: Record<string, unknown>): Record<string, number> {
  const hooks = (base.hooks ?? {}) as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const e of EVENTS) {
    const list = hooks[e.name];
    out[e.key] = Array.isArray(list) ? list.length : 0;
  }
  return out;
}

/** The person's text: NEXUS's two blocks out, every line connect set aside put back. */
export const withoutNexus = (text: string): string => removeTopBlock(withoutBlock(text));

/**
 * The config with NEXUS connected (its hook and Codex's wall, with `trust` entries when known) or disconnected
 * (both taken out: the file as it was when it is untouched since connect, per `rec`). `wallDirs`: the data dir
 * and its real path, each made unreachable to Codex's commands.
 */
export function planCodexConfig(
  text: string | null,
  file: string,
  action: 'connect' | 'disconnect',
  spec: HookSpec,
  trust: Record<string, string> = {},
  wallDirs: string[] = [spec.dataDir],
  rec: WallRecord | null = null,
): string {
  if (action === 'disconnect' && rec && rec.before !== undefined && text === rec.after) return rec.before ?? '';
  const original = text ?? '';
  parseCodexConfig(original, file);
  const base = withoutNexus(original);
  const parsedBase = parseCodexConfig(base, file);
  if (action === 'disconnect') return base;
  const perms = parsedBase.permissions;
  if (perms && typeof perms === 'object' && PROFILE in perms)
    throw new Error(`${file} already has a permission profile named "${PROFILE}"; NEXUS's wall needs that name. Rename yours, then connect again.`);
  const wall = codexWallText(wallDirs, baseProfile(parsedBase));
  const hooks = (parsedBase.hooks ?? {}) as Record<string, unknown>;
  for (const e of EVENTS) {
    if (hooks[e.name] !== undefined && !Array.isArray(hooks[e.name]))
      throw new Error(`${file}: hooks.${e.name} is not a list of tables; NEXUS cannot add its hook next to it.`);
  }
  const command = hookCommand('codex', spec);
  const lines = [BLOCK_BEGIN, ...wall.tables];
  for (const e of EVENTS) {
    lines.push(
      `[[hooks.${e.name}]]`,
      'matcher = "*"',
      `[[hooks.${e.name}.hooks]]`,
      'type = "command"',
      `command = ${tomlString(command)}`,
      `timeout = ${spec.timeoutS}`,
    );
  }
  for (const [key, hash] of Object.entries(trust).sort()) lines.push(`[hooks.state.${tomlString(key)}]`, `trusted_hash = ${tomlString(hash)}`);
  lines.push(BLOCK_END);
  const after = `${addTopBlock(base, wall.top).replace(/\n*$/, '\n\n')}${lines.join('\n')}\n`;
  const parsed = parseCodexConfig(after, `${file} (as NEXUS would write it)`);
  // Fail closed: a key NEXUS could not set aside (say, a quoted or multi-line one) would leave the wall open.
  if (parsed.default_permissions !== PROFILE || parsed.sandbox_mode !== undefined || parsed.approval_policy !== 'on-request')
    throw new Error(
      `${file}: NEXUS could not set your sandbox_mode / approval_policy / default_permissions aside, so Codex's sandbox would not be NEXUS's; write them as plain one-line keys at the top of the file, then connect again.`,
    );
  return after;
}

/** The NEXUS hook commands a config holds (any data dir). */
export function codexHookCommands(text: string | null): string[] {
  if (!text) return [];
  let c: Record<string, unknown>;
  try {
    c = parse(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const out: string[] = [];
  const hooks = (c.hooks ?? {}) as Record<string, unknown>;
  for (const e of EVENTS) {
    const groups = hooks[e.name];
    if (!Array.isArray(groups)) continue;
    for (const g of groups as Array<{ hooks?: Array<{ command?: unknown }> }>) for (const h of g?.hooks ?? []) if (isNexusHook(h?.command)) out.push(h.command);
  }
  return out;
}

/** The trust keys Codex will give NEXUS's hooks in this config (for the preview). */
export function trustKeys(configPath: string, base: Record<string, unknown>): string[] {
  const idx = groupIndexes(base);
  return EVENTS.map((e) => `${configPath}:${e.key}:${idx[e.key]}:0`);
}
