// Gemini CLI's settings.json (`<project>/.gemini/settings.json`, or `~/.gemini/settings.json` for the user):
// NEXUS adds (or removes) its BeforeTool and SessionEnd hook entries and leaves every other key as it was.
//
// Gemini's hook `timeout` is in MILLISECONDS (default 60000) and a hook it kills counts as "no opinion": the call
// runs. So the entry's timeout is the person's wait (--timeout, 900 s by default) in ms, and the hook itself
// answers deny 5 s before it (nexus-hook.ts): NEXUS, not Gemini's timeout, ends every wait.
import { hookCommand, type HookSpec } from './hook-command.js';
import { nexusHookCommands, parseClaudeSettings, withoutNexusHooks } from './claude-settings.js';

const EVENTS = ['BeforeTool', 'SessionEnd'] as const;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
export function planGeminiSettings(text: string | null, file: string, action: 'connect' | 'disconnect', spec: HookSpec): string {
  const base = withoutNexusHooks(parseClaudeSettings(text, file), EVENTS);
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
export const geminiHookCommands = (text: string | null): string[] => nexusHookCommands(text, EVENTS);
