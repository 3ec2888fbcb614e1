// Gemini CLI's settings.json (`<project>/.gemini/settings.json`, or `~/.gemini/settings.json` for the user):
// NEXUS adds (or removes) its BeforeTool and SessionEnd hook entries and leaves every other key as it was.
//
// Gemini's hook `timeout` is in MILLISECONDS (default 60000) and a hook it kills counts as "no opinion": the call
// runs. So the entry's timeout is the person's wait (--timeout, 900 s by default) in ms, and the hook itself
// answers deny 5 s before it (nexus-hook.ts): NEXUS, not Gemini's timeout, ends every wait.
import { hookCommand, isNexusHook, type HookSpec } from './hook-command.js';
import { parseClaudeSettings } from './claude-settings.js';

const EVENTS = ['BeforeTool', 'SessionEnd'] as const;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const isNexusEntry = (h: unknown) => isObj(h) && isNexusHook(h.command);

function withoutNexus(settings: Json): Json {
  const out: Json = { ...settings };
  if (!isObj(out.hooks)) return out;
  const hooks: Json = { ...out.hooks };
  for (const ev of EVENTS) {
    const groups = hooks[ev];
    if (!Array.isArray(groups)) continue;
    const kept = groups
      .map((g) => {
        if (!isObj(g) || !Array.isArray(g.hooks) || !g.hooks.some(isNexusEntry)) return g;
        const rest = g.hooks.filter((h) => !isNexusEntry(h));
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

export function planGeminiSettings(text: string | null, file: string, action: 'connect' | 'disconnect', spec: HookSpec): string {
  const base = withoutNexus(parseClaudeSettings(text, file));
  if (action === 'connect') {
    const hooks: Json = isObj(base.hooks) ? { ...base.hooks } : {};
    const entry = { type: 'command', name: 'nexus', command: hookCommand('gemini', spec), timeout: spec.timeoutS * 1000 };
    for (const ev of EVENTS) {
      const prev: unknown = hooks[ev];
      hooks[ev] = [...(Array.isArray(prev) ? prev : []), { matcher: '*', hooks: [entry] }];
    }
    base.hooks = hooks;
  }
  return `${JSON.stringify(base, null, 2)}\n`;
}

/** The NEXUS hook commands a Gemini settings file holds (any data dir). */
export function geminiHookCommands(text: string | null): string[] {
  let s: Json;
  try {
    s = parseClaudeSettings(text, 'settings');
  } catch {
    return [];
  }
  if (!isObj(s.hooks)) return [];
  const out: string[] = [];
  for (const ev of EVENTS) {
    const groups = s.hooks[ev];
    if (!Array.isArray(groups)) continue;
    for (const g of groups) if (isObj(g) && Array.isArray(g.hooks)) for (const h of g.hooks) if (isObj(h) && isNexusHook(h.command)) out.push(h.command);
  }
  return out;
}
