// The answer each client reads on the hook's stdout. Both read the same PreToolUse shape (Claude Code defined it;
// Codex follows it). `ask` hands the call back to the client's own permission flow: Claude Code shows its
// prompt; Codex has no `ask`, so the hook prints nothing (no opinion) and Codex's own policy decides.
export interface HookAnswer {
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
}

export function renderAnswer(client: 'claude-code' | 'codex', event: 'PreToolUse' | 'PermissionRequest', a: HookAnswer): string | null {
  if (event === 'PermissionRequest') {
    if (a.decision === 'ask') return null;
    const decision = a.decision === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: a.reason };
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
  }
  if (a.decision === 'ask' && client === 'codex') return null;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: a.decision, permissionDecisionReason: a.reason } });
}
