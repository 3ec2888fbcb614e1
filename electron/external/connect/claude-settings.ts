// Claude Code's settings.json: NEXUS adds (or removes) its PreToolUse, PermissionRequest and SessionEnd hook entries and
// leaves every other key as it was. A file that is not a JSON object is refused, never overwritten.
import { hookCommand, isNexusHook, type HookSpec } from './hook-command.js';
import { addClaudeWall, removeClaudeWall, type Prior } from './claude-wall.js';
import type { WallRecord } from './wall-record.js';

// SessionEnd tells NEXUS the session is over, so its run ends (external/session-end.ts).
const EVENTS = ['PreToolUse', 'PermissionRequest', 'SessionEnd'] as const;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export function parseClaudeSettings(text: string | null, file: string): Json {
  if (text === null || !text.trim()) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(
      `${file} is not valid JSON (${e instanceof Error ? e.message : String(e)}); NEXUS will not rewrite it. Fix or move it, then connect again.`,
    );
  }
  if (!isObj(v)) throw new Error(`${file} does not hold a JSON object; NEXUS will not rewrite it.`);
  return v;
}

/** The settings without NEXUS's hook entries under `events` (groups left empty by that are dropped, as are empty
 *  event lists). Claude Code's and Gemini CLI's files share this shape: `hooks.<event>[].hooks[].command`. */
export function withoutNexusHooks(settings: Json, events: readonly string[]): Json {
  const out: Json = { ...settings };
  if (!isObj(out.hooks)) return out;
  const hooks: Json = { ...out.hooks };
  for (const ev of events) {
    const groups = hooks[ev];
    if (!Array.isArray(groups)) continue;
    const kept = groups
      .map((g) => {
        if (!isObj(g) || !Array.isArray(g.hooks) || !g.hooks.some((h) => isObj(h) && isNexusHook(h.command))) return g;
        const rest = g.hooks.filter((h) => !(isObj(h) && isNexusHook(h.command)));
        return rest.length ? { ...g, hooks: rest } : null;
      })
      .filter((g) => g !== null);
    if (kept.length) hooks[ev] = kept;
    else delete hooks[ev];
  }
  if (Object.keys(hooks).length) out.hooks = hooks;
  else delete out.hooks;
  return out;
}

/**
 * The file after connect (the hook and Claude Code's own wall, claude-wall.ts) or disconnect (both taken back:
 * the file as it was when it is untouched since connect, else each wall key back to its prior value).
 */
export function planClaudeSettings(
  text: string | null,
  file: string,
  action: 'connect' | 'disconnect',
  spec: HookSpec,
  rec: WallRecord | null = null,
): { after: string; prior: Prior | null } {
  if (action === 'disconnect' && rec && rec.before !== undefined && text === rec.after) return { after: rec.before ?? '', prior: null };
  let base = withoutNexusHooks(parseClaudeSettings(text, file), EVENTS);
  if (rec) base = removeClaudeWall(base, rec.prior);
  if (action === 'disconnect') return { after: `${JSON.stringify(base, null, 2)}\n`, prior: null };
  const hooks: Json = isObj(base.hooks) ? { ...base.hooks } : {};
  const entry = { type: 'command', command: hookCommand('claude-code', spec), timeout: spec.timeoutS };
  for (const ev of EVENTS) hooks[ev] = [...(Array.isArray(hooks[ev]) ? (hooks[ev] as unknown[]) : []), { matcher: '*', hooks: [entry] }];
  base.hooks = hooks;
  const walled = addClaudeWall(base, spec.dataDir);
  return { after: `${JSON.stringify(walled.settings, null, 2)}\n`, prior: walled.prior };
}

/** The NEXUS hook commands a settings file holds (any data dir). */
export const claudeHookCommands = (text: string | null): string[] => nexusHookCommands(text, EVENTS);

/** The NEXUS hook commands under `events` in a settings file of the shape withoutNexusHooks reads. */
export function nexusHookCommands(text: string | null, events: readonly string[]): string[] {
  let s: Json;
  try {
    s = parseClaudeSettings(text, 'settings');
  } catch {
    return [];
  }
  if (!isObj(s.hooks)) return [];
  const out: string[] = [];
  for (const ev of events) {
    const groups = s.hooks[ev];
    if (!Array.isArray(groups)) continue;
    for (const g of groups) if (isObj(g) && Array.isArray(g.hooks)) for (const h of g.hooks) if (isObj(h) && isNexusHook(h.command)) out.push(h.command);
  }
  return out;
}
