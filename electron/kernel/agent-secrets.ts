// An agent profile's MCP secrets (each server's `env` values and `headers`) are split from the profile on save
// and joined back only when a runner starts. The saved profile — the database, agentsList/agentsGet through
// every door — carries `{ "set": true }` where a value was (SECRET_SET); the value lives in the secret store
// (store/secrets.ts). Saving `{ "set": true }` back keeps the stored value, so an edit-and-save of a listed
// profile never wipes it; a key left out of the saved profile is deleted with its value.
import type { McpServerConfig, SecretSet, StoredMcpServerConfig } from '../../shared/types.js';
import type { AgentSecrets, SecretKind, SecretStore } from '../store/secrets.js';
import { KernelError } from './errors.js';

export const SECRET_SET: SecretSet = Object.freeze({ set: true }) as SecretSet;
const KINDS: readonly SecretKind[] = ['env', 'headers'];
const isSet = (v: unknown): v is SecretSet => !!v && typeof v === 'object' && (v as { set?: unknown }).set === true;

/** The profile's servers with every secret replaced by SECRET_SET, and the values to store. */
export function splitSecrets(
  servers: Record<string, StoredMcpServerConfig> | undefined,
  stored: AgentSecrets,
): { servers: Record<string, StoredMcpServerConfig> | undefined; secrets: AgentSecrets } {
  if (!servers) return { servers, secrets: {} };
  const secrets: AgentSecrets = {};
  const out: Record<string, StoredMcpServerConfig> = {};
  for (const [server, cfg] of Object.entries(servers)) {
    const copy: StoredMcpServerConfig = { ...cfg };
    for (const kind of KINDS) {
      const values = cfg[kind];
      if (!values) continue;
      const marked: Record<string, SecretSet> = {};
      for (const [name, v] of Object.entries(values)) {
        let value: string | undefined;
        if (typeof v === 'string') value = v;
        else if (isSet(v)) {
          value = stored[server]?.[kind]?.[name];
          if (value === undefined) {
            throw new KernelError(
              'invalid_input',
              `mcpServers.${server}.${kind}.${name} says { "set": true } but no value is stored for it: give the value itself`,
            );
          }
        } else throw new KernelError('invalid_input', `mcpServers.${server}.${kind}.${name} must be text, or { "set": true } to keep the stored value`);
        ((secrets[server] ??= {})[kind] ??= {})[name] = value;
        marked[name] = SECRET_SET;
      }
      copy[kind] = marked;
    }
    out[server] = copy;
  }
  return { servers: out, secrets };
}

/** Does this profile still hold a secret value in clear (a row saved before secrets moved out)? */
export const hasClearSecrets = (servers: Record<string, StoredMcpServerConfig> | undefined): boolean =>
  Object.values(servers ?? {}).some((cfg) => KINDS.some((k) => Object.values(cfg[k] ?? {}).some((v) => typeof v === 'string')));

/**
 * The config a runner starts with: the stored values put back. A value this process cannot read (saved under
 * another OS keychain) or that is missing fails that server with a sentence; its siblings still start.
 */
export function joinSecrets(
  agent: string,
  servers: Record<string, StoredMcpServerConfig> | undefined,
  store: SecretStore,
): Record<string, McpServerConfig | Error> {
  const out: Record<string, McpServerConfig | Error> = {};
  if (!servers) return out;
  let read: ReturnType<SecretStore['get']>;
  try {
    read = store.get(agent);
  } catch (e) {
    for (const server of Object.keys(servers)) out[server] = e instanceof Error ? e : new Error(String(e));
    return out;
  }
  const { secrets, unreadable } = read;
  for (const [server, cfg] of Object.entries(servers)) {
    const real: McpServerConfig = { ...cfg } as McpServerConfig;
    let missing: string | null = null;
    for (const kind of KINDS) {
      if (!cfg[kind]) continue;
      const values: Record<string, string> = {};
      for (const [name, v] of Object.entries(cfg[kind]!)) {
        const value = typeof v === 'string' ? v : secrets[server]?.[kind]?.[name];
        if (value === undefined) missing ??= `mcpServers.${server}.${kind}.${name}`;
        else values[name] = value;
      }
      real[kind] = values;
    }
    out[server] = missing
      ? new Error(
          unreadable.includes(missing)
            ? `${missing} was saved under another OS keychain (the desktop app's) and cannot be read here; save the profile again with its value`
            : `${missing} has no stored value; save the profile again with its value`,
        )
      : real;
  }
  return out;
}
