// The hook's side of Gemini CLI and OpenCode (node built-ins only, as the rest of the hook).
//
// Gemini CLI runs the hook on `BeforeTool` with Claude Code's fields (no tool_use_id) and reads a TOP-LEVEL
// answer: `{"decision":"allow"}` or `{"decision":"deny","reason":"…"}`; Claude's `hookSpecificOutput` shape is
// ignored by it (the call would run). OpenCode has no command hooks: NEXUS's plugin (connect/opencode-plugin.ts)
// runs this hook with a PreToolUse event it builds and throws when the answer is not allow; it reads the same
// top-level shape.
import type { HookAnswer } from './render.js';

export type HookClient = 'claude-code' | 'codex' | 'gemini' | 'opencode';
export const HOOK_CLIENTS: readonly HookClient[] = ['claude-code', 'codex', 'gemini', 'opencode'];

/** Gemini's event names as the kernel reads them: BeforeTool is its PreToolUse. */
export function normalizeEvent(client: HookClient, event: Record<string, unknown>): Record<string, unknown> {
  if (client === 'gemini' && event.hook_event_name === 'BeforeTool') return { ...event, hook_event_name: 'PreToolUse' };
  return event;
}

/** The answer for Gemini and OpenCode. `ask` is Gemini's own prompt; OpenCode's plugin treats it as "not allowed". */
export const renderTopLevel = (a: HookAnswer): string =>
  JSON.stringify(a.decision === 'allow' ? { decision: 'allow', reason: a.reason } : { decision: a.decision, reason: a.reason });

/** The project folder the client names in the hook's environment (Claude Code's variable; Gemini sets its own too). */
export function projectDir(client: HookClient, env: NodeJS.ProcessEnv): string | undefined {
  if (client === 'claude-code') return env.CLAUDE_PROJECT_DIR || undefined;
  if (client === 'gemini') return env.GEMINI_PROJECT_DIR || undefined;
  // OpenCode: the plugin sends its project `directory` as the event's cwd, which NEXUS takes as the project.
  return undefined;
}
