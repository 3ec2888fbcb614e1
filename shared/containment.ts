// What contains an agent's commands, in the words every view uses (the CLI after `agents add`, the agent editor,
// cards): one source, so no view says "sandbox: on" for a connected client whose commands NEXUS's sandbox never
// runs (issue 25.7). Pure: no I/O.

export type ClientKind = 'claude-code' | 'codex';
const CLIENT_LABEL: Record<ClientKind, string> = { 'claude-code': 'Claude Code', codex: 'Codex' };

/** NEXUS's own sandbox, as one phrase (the editor adds that the data dir stays out of sight). */
export const NEXUS_SANDBOX = 'writes only its workspace';

/** A connected client's commands: run by the client, inside its own sandbox as `nexus connect` configures it. */
export const clientContainment = (client: ClientKind): string =>
  `${CLIENT_LABEL[client]}'s own sandbox, as \`nexus connect ${client}\` configures it (its commands run outside NEXUS's sandbox; NEXUS checks that wall at every call)`;

/** The line for an agent: a connected client's, NEXUS's sandbox, or none. */
export function containmentOf(a: { sandbox?: boolean; external?: { client: ClientKind } }): string {
  if (a.external) return `sandbox: ${clientContainment(a.external.client)}`;
  if (a.sandbox === false) return 'sandbox: OFF: its commands run unsandboxed, with every file and host the user can reach';
  return `sandbox: on: ${NEXUS_SANDBOX}`;
}
