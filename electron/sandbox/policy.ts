// What the OS sandbox around one agent's processes allows: its workspace (read-write), a private tmp, the
// rest of the machine read-only except the folders it must not see at all (NEXUS's data dir: database,
// control socket, credentials), the hosts it may reach, and the variables passed through to it.
import { ruleMatches } from '../../shared/net/host.js';
import type { AgentProfile } from '../../shared/types.js';
import { normaliseHost } from './destination.js';

export interface SandboxPolicy {
  /** false only when the person turned the sandbox off for this agent (`"sandbox": false`). */
  enabled: boolean;
  /** The realpath of the run's workspace: the only place (with a private /tmp) it may write. */
  workspace: string;
  /** Folders hidden entirely (an empty tmpfs over each); the workspace is bound back if it lies inside. */
  hidden: string[];
  /** Hosts reachable through NEXUS's proxy; empty: no network at all (not even loopback). */
  networkAllow: string[];
  /** Variable names of the kernel's environment passed through (besides the fixed allowlist). */
  envPassthrough: string[];
  /** Names never passed whatever the profile says (the agent's provider key variable). */
  envWithheld: string[];
}

type SandboxFields = Pick<AgentProfile, 'sandbox' | 'network' | 'env_passthrough' | 'model'>;

/** The policy for a run of `profile` (null: a person's own run, fully sandboxed, no network). */
export function policyFor(profile: SandboxFields | null, o: { workspace: string; dataDir: string; network?: string[] }): SandboxPolicy {
  return {
    enabled: profile?.sandbox !== false,
    workspace: o.workspace,
    hidden: [o.dataDir],
    networkAllow: o.network ?? profile?.network?.allow ?? [],
    envPassthrough: profile?.env_passthrough ?? [],
    envWithheld: profile?.model?.apiKeyEnv ? [profile.model.apiKeyEnv] : [],
  };
}

/**
 * Does a request for `host` (as written) match one of the allowed patterns (`api.github.com`, `*.github.com`,
 * `10.0.0.5`)? Only the name: where it then leads is destinationFor's question.
 */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const h = normaliseHost(host);
  return h !== null && allow.some((rule) => ruleMatches(rule, h));
}
