// Codex's own wall (DESIGN §7.3): a connected Codex runs its commands itself, outside NEXUS's sandbox, so
// `nexus connect codex` puts Codex's commands in a permission profile of Codex 0.169 (`default_permissions`,
// `[permissions.<name>]`) that writes only the workspace, has no network (so no socket: Codex's Linux sandbox
// refuses socket() in its seccomp filter) and cannot open NEXUS's data dir at all (`"<dataDir>" = "none"`: its
// bubblewrap masks the folder; reads and writes get EACCES). A profile does not compose with the older
// `sandbox_mode` settings (Codex then ignores the profile), so connect sets the person's top-level
// `sandbox_mode`, `approval_policy` and `default_permissions` lines aside, as comments that disconnect puts back.
// Pure: text in, text out.
import { z } from 'zod';

export const PROFILE = 'nexus';
export const TOP_BEGIN = '# >>> NEXUS sandbox for Codex (added by `nexus connect codex`; `nexus disconnect codex` removes it)';
export const TOP_END = '# <<< NEXUS sandbox for Codex';
/** A person's line connect set aside: the marker, then the line exactly as they wrote it. */
export const SET_ASIDE = '# set aside by `nexus connect codex` (disconnect puts it back): ';
/** Top-level keys that would override or clash with NEXUS's profile. */
const OWN_KEYS = ['sandbox_mode', 'approval_policy', 'default_permissions'];

const tomlString = (s: string) => JSON.stringify(s);

/** The built-in profile NEXUS's extends: read-only stays read-only; everything else gets the workspace. */
export function baseProfile(person: Record<string, unknown>): ':read-only' | ':workspace' {
  return person.sandbox_mode === 'read-only' || person.default_permissions === ':read-only' ? ':read-only' : ':workspace';
}

/** A config profile the person selects (`profile = "x"`) whose `sandbox_mode` would override NEXUS's profile. */
export function overridingProfile(person: Record<string, unknown>): string | null {
  const name = person.profile;
  const profiles = person.profiles;
  if (typeof name !== 'string' || !profiles || typeof profiles !== 'object' || !(name in profiles)) return null;
  const chosen: unknown = Object.entries(profiles).find(([k]) => k === name)?.[1];
  return chosen && typeof chosen === 'object' && 'sandbox_mode' in chosen ? name : null;
}

/** Each setting NEXUS writes, with why: `connect` prints these. */
export function codexWall(dataDirs: string[], base: ':read-only' | ':workspace' = ':workspace'): { key: string; value: string; why: string }[] {
  return [
    {
      key: 'default_permissions',
      value: tomlString(PROFILE),
      why: "Codex's commands run in NEXUS's permission profile (it replaces sandbox_mode while connected)",
    },
    {
      key: `permissions.${PROFILE}.extends`,
      value: tomlString(base),
      why: base === ':workspace' ? 'its commands write only the workspace (workspace-write)' : 'its commands stay read-only, as you had them',
    },
    ...dataDirs.map((d) => ({
      key: `permissions.${PROFILE}.filesystem.${tomlString(d)}`,
      value: '"none"',
      why: "NEXUS's data dir (its credentials, socket and database) is neither readable nor writable to its commands",
    })),
    { key: `permissions.${PROFILE}.network.enabled`, value: 'false', why: "no network, so its commands cannot open NEXUS's control socket" },
    {
      key: 'approval_policy',
      value: '"on-request"',
      why: 'a command that asks to leave the sandbox (sandbox_permissions = "require_escalated") asks NEXUS, and is always a card marked as an escape',
    },
  ];
}

/** The top block (top-level keys must come before any table) and the profile's tables (in NEXUS's end block). */
export function codexWallText(dataDirs: string[], base: ':read-only' | ':workspace'): { top: string[]; tables: string[] } {
  const w = codexWall(dataDirs, base);
  const top = [TOP_BEGIN, ...w.filter((x) => !x.key.includes('.')).map((x) => `${x.key} = ${x.value}`), TOP_END];
  const tables = [
    `[permissions.${PROFILE}]`,
    `extends = ${tomlString(base)}`,
    `[permissions.${PROFILE}.filesystem]`,
    ...dataDirs.map((d) => `${tomlString(d)} = "none"`),
    `[permissions.${PROFILE}.network]`,
    'enabled = false',
  ];
  return { top, tables };
}

/** The person's lines before their first table: where top-level keys live. */
function topLevelEnd(lines: string[]): number {
  const i = lines.findIndex((l) => /^\s*\[/.test(l));
  return i < 0 ? lines.length : i;
}

/** The text with the person's own sandbox_mode / approval_policy / default_permissions set aside and NEXUS's top block first. */
export function addTopBlock(text: string, top: string[]): string {
  const lines = text.split('\n');
  const end = topLevelEnd(lines);
  const keyRe = new RegExp(`^\\s*(?:${OWN_KEYS.join('|')})\\s*=`);
  const out = lines.map((l, i) => (i < end && keyRe.test(l) ? SET_ASIDE + l : l));
  return `${top.join('\n')}\n${text.length ? '\n' : ''}${out.join('\n')}`;
}

/** The text without NEXUS's top block (and its blank line), each set-aside line put back as it was. */
export function removeTopBlock(text: string): string {
  let t = text;
  const start = t.indexOf(TOP_BEGIN);
  if (start >= 0) {
    const endAt = t.indexOf(TOP_END, start);
    const end = endAt < 0 ? start + TOP_BEGIN.length : endAt + TOP_END.length;
    t = t.slice(0, start) + t.slice(end).replace(/^\n\n?/, '');
  }
  return t
    .split('\n')
    .map((l) => (l.startsWith(SET_ASIDE) ? l.slice(SET_ASIDE.length) : l))
    .join('\n');
}

const Entry = z.object({
  path: z.union([z.object({ type: z.literal('path'), path: z.string() }), z.object({ type: z.string() })]),
  access: z.string(),
});
/** The fields of a Codex session's `turn_context` (its rollout file) the wall check reads: the policy in force. */
export const TurnContext = z.object({
  turn_id: z.string().optional(),
  approval_policy: z.unknown().optional(),
  sandbox_policy: z.object({ type: z.string(), network_access: z.boolean().optional() }),
  file_system_sandbox_policy: z.object({ kind: z.string(), entries: z.array(Entry).optional() }).optional(),
  permission_profile: z.object({ network: z.unknown().optional() }).optional(),
});
export type TurnContext = z.infer<typeof TurnContext>;

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * What is missing from Codex's wall in the policy a session's turn runs under (what Codex itself recorded, so
 * it covers config.toml, a project's .codex/config.toml, a config profile, -c, --sandbox and
 * --dangerously-bypass-approvals-and-sandbox alike), as a phrase, or null when it holds. `dataDirs`: the data
 * dir as NEXUS names it and its real path.
 */
export function codexWallGap(ctx: TurnContext, dataDirs: string[]): string | null {
  const type = ctx.sandbox_policy.type;
  if (type !== 'workspace-write' && type !== 'read-only') return `its sandbox is off (${type})`;
  const fs = ctx.file_system_sandbox_policy;
  if (!fs || fs.kind !== 'restricted') return `its sandbox does not restrict files (${fs?.kind ?? 'no file policy'})`;
  const net = ctx.permission_profile?.network;
  if (ctx.sandbox_policy.network_access === true || (net !== undefined && net !== 'restricted'))
    return "its commands may use the network (network_access), so they could reach NEXUS's socket";
  const paths = (fs.entries ?? []).flatMap((e) => ('path' in e.path && typeof e.path.path === 'string' ? [{ path: e.path.path, access: e.access }] : []));
  for (const dir of dataDirs) {
    const denied = paths.filter((e) => e.access === 'deny' && inside(dir, e.path));
    // A read or write entry at or under the data dir (more specific than a deny above it) would open it again.
    const opened = paths.some((e) => e.access !== 'deny' && inside(e.path, dir));
    if (!denied.length || opened) return "NEXUS's data dir is readable to its commands";
  }
  return null;
}
