// What contains an agent's commands, in the words every view uses (the CLI after `agents add`, the agent editor,
// cards): one source, so no view says "sandbox: on" for a connected client whose commands NEXUS's sandbox never
// runs (issue 25.7). Pure: no I/O.

export type ClientKind = 'claude-code' | 'codex' | 'gemini' | 'opencode';

/** NEXUS's own sandbox, as one phrase (the editor adds that the data dir stays out of sight). */
export const NEXUS_SANDBOX = 'writes only its workspace';

/** A connected client's commands: run by the client, outside NEXUS's sandbox. Claude Code's and Codex's own
 *  sandboxes are written by `nexus connect` and checked at every call; for the others the sentence says what the person must do. */
const CLIENT_CONTAINMENT: Record<ClientKind, string> = {
  'claude-code':
    "Claude Code's own sandbox, as `nexus connect claude-code` configures it (its commands run outside NEXUS's sandbox; NEXUS checks that wall at every call)",
  codex:
    "Codex's own sandbox, as `nexus connect codex` configures it (workspace writes, no network, NEXUS's data dir unreadable; its commands run outside NEXUS's sandbox; NEXUS checks that wall at every call)",
  gemini: "none of NEXUS's: Gemini CLI runs its commands itself (start it with --sandbox to contain them; `nexus connect gemini` does not)",
  opencode: "none of NEXUS's: OpenCode runs its commands itself, unsandboxed (`nexus connect opencode` adds only the approval plugin)",
};
export const clientContainment = (client: ClientKind): string => CLIENT_CONTAINMENT[client];

/** The line for an agent: a connected client's, NEXUS's sandbox, or none. */
export function containmentOf(a: { sandbox?: boolean; external?: { client: ClientKind } }): string {
  if (a.external) return `sandbox: ${clientContainment(a.external.client)}`;
  if (a.sandbox === false) return 'sandbox: OFF: its commands run unsandboxed, with every file and host the user can reach';
  return `sandbox: on: ${NEXUS_SANDBOX}`;
}
