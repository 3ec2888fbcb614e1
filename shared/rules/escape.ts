// Escapes: a connected client's call that asks to run outside the client's own sandbox (DESIGN §7.3). Such a
// call is never granted by a rule, a mode or session trust: it is always a card, marked as an escape, because
// the client's sandbox is the only wall between its commands and NEXUS's data dir. Pure: no I/O.

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Why this call is an escape, as one sentence the approver reads; null when it stays inside the client's sandbox. */
export function escapeOf(toolName: string, toolInput: unknown): string | null {
  const input = isRecord(toolInput) ? toolInput : {};
  if (input.dangerouslyDisableSandbox === true)
    return `This ${toolName} call asks to run outside the client's sandbox (dangerouslyDisableSandbox), where it could read and answer NEXUS for itself.`;
  const perms = input.sandbox_permissions;
  if (perms === 'require_escalated' || input.with_escalated_permissions === true)
    return `This ${toolName} call asks for escalated permissions (outside the client's sandbox), where it could read and answer NEXUS for itself.`;
  const flag = dangerousFlag(input.command ?? input.cmd);
  if (flag) return `This command passes ${flag}, which turns off a client's own protections.`;
  return null;
}

/** The first `--dangerously-*` flag of a command (a string or an argv array), or null. */
function dangerousFlag(command: unknown): string | null {
  const words = typeof command === 'string' ? command.split(/[\s'"=;|&()`]+/) : Array.isArray(command) ? command.filter((w) => typeof w === 'string') : [];
  for (const w of words) {
    const m = /^--dangerously-[A-Za-z0-9-]*/.exec(w.trim());
    if (m) return m[0];
  }
  return null;
}

/**
 * An escape the call's input does not show. Codex asks for approval (its PermissionRequest hook) for a command
 * or a patch only to run it outside its sandbox: `sandbox_permissions: "require_escalated"`, a write outside the
 * workspace, a retry without the sandbox. Its PreToolUse input leaves those fields out, so the request itself is
 * the mark. (An MCP tool's approval is not an escape: Codex does not sandbox MCP servers.)
 */
export function requestEscapeOf(client: string, hookEvent: string, toolName: string): string | null {
  if (client !== 'codex' || hookEvent !== 'PermissionRequest' || toolName.startsWith('mcp__')) return null;
  return `Codex asks to run this ${toolName} call outside its sandbox (an escalation, e.g. sandbox_permissions "require_escalated"), where it could read and answer NEXUS for itself.`;
}
