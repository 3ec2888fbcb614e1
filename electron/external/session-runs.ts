// One agent per client and project (`claude-code-<folder>`, visibly named), one run per client session. The run
// is created at the session's first call, and its mode and rules are frozen then, as for any run.
import { basename, isAbsolute } from 'node:path';
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import type { Kernel } from '../kernel/kernel.js';
import type { AgentRow } from '../store/queries/agents.js';
import { saveAgent, tightenApproval } from '../agents/profiles.js';
import { CLIENT_RUN_PREFIX } from '../kernel/client-runs.js';
import type { Run } from '../kernel/types.js';
import type { ClientName } from './tool-map.js';

/** A refusal the hook answers as a deny, with a sentence the model and the person read. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly by: string,
  ) {
    super(message);
  }
}

/** A connected client's agent has no model NEXUS calls; this stands in the profile's required model field. */
const NO_MODEL = (client: ClientName) => ({
  provider: 'anthropic' as const,
  baseURL: 'http://127.0.0.1:9',
  model: `${client} (connected client; NEXUS does not call a model)`,
});

const sanitize = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');

/** The real, existing, absolute folder a client says it works in; anything else is refused. */
export function realFolder(dir: string, what: string): string {
  if (!isAbsolute(dir)) throw new Refusal(`NEXUS refused this call: the ${what} ${JSON.stringify(dir)} is not an absolute path.`, 'nexus');
  try {
    const real = realpathSync(dir);
    if (statSync(real).isDirectory()) return real;
  } catch {
    /* below */
  }
  throw new Refusal(`NEXUS refused this call: the ${what} ${JSON.stringify(dir)} is not an existing folder.`, 'nexus');
}

/** The agent of this client and project: found by its `external` mark, created on first use (mode ask, no rules). */
export function agentFor(kernel: Kernel, client: ClientName, project: string): AgentRow {
  const base = sanitize(`${client}-${basename(project)}`).slice(0, 50) || client;
  const hash = createHash('sha256').update(project).digest('hex').slice(0, 8);
  for (const name of [base, `${base}-${hash}`]) {
    const a = kernel.records.agent(name);
    if (a && a.external?.client === client && a.external.project === project) {
      if (a.status === 'removed')
        throw new Refusal(
          `NEXUS refused this call: the agent ${name} (${client} in ${project}) was removed in NEXUS. Save it again in Agents to let this project ask again.`,
          'nexus',
        );
      return a;
    }
    if (a) continue; // a name another agent holds: try the next
    return saveAgent(kernel, {
      name,
      model: NO_MODEL(client),
      mode: 'ask',
      approval_rules: [],
      workspace: project,
      instructions: `${client} working in ${project}, connected through its tool hook. Its calls cross this agent's rules; the client runs what is allowed.`,
      external: { client, project },
    }).agent;
  }
  throw new Refusal(`NEXUS refused this call: no agent name is free for ${client} in ${project}.`, 'nexus');
}

export const sessionKey = (client: ClientName, session_id: string) => `${CLIENT_RUN_PREFIX}${client}:${session_id}`;

/** The session's run, or null: the newest run recorded for this client session. */
export function findSessionRun(kernel: Kernel, key: string): Run | null {
  const hit = kernel.records.newestRunCreatedBy(key);
  return hit ? kernel.getRun(hit) : null;
}

/** A new run for the session: the agent's mode and rules frozen now; its folder is the session's. */
export function createSessionRun(kernel: Kernel, agent: AgentRow, key: string, folder: string, client: ClientName, session_id: string): Run {
  const { mode, compiled } = tightenApproval(agent);
  return kernel.createRun({ agent: agent.name, mode, rules: compiled, workspace: folder, prompt: `${client} session ${session_id}`, created_by: key });
}
