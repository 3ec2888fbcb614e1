// Start-up step: profiles saved before MCP secrets moved out of the database still hold them in clear.
// Each such profile's values move to the secret store and the row keeps `{ "set": true }`. Then the database
// is rebuilt (VACUUM) and its write-ahead log emptied, so no freed page or old log frame keeps a copy.
import type { AgentProfile } from '../../shared/types.js';
import { listAgents, setAgentProfileJson } from '../store/queries/agents.js';
import { compactAndForget } from '../store/queries/maintenance.js';
import { hasClearSecrets, splitSecrets } from './agent-secrets.js';
import type { Db } from '../store/db.js';
import type { SecretStore } from '../store/secrets.js';

/** Returns the names of the agents whose secrets moved. */
export function moveClearSecretsOutOfDb(db: Db, store: SecretStore): string[] {
  const moved: string[] = [];
  for (const agent of listAgents(db)) {
    if (!hasClearSecrets(agent.mcpServers)) continue;
    const { secrets: kept } = store.get(agent.name);
    // A clear value wins over a stored one of the same key (it is the newer save); { set: true } keeps the stored one.
    const { servers, secrets } = splitSecrets(agent.mcpServers, kept);
    store.set(agent.name, secrets);
    // The stored profile is the agent without its bookkeeping columns.
    const { status: _status, credentials_fenced: _fenced, executor_revoked: _revoked, created_at: _created, updated_at: _updated, ...profile } = agent;
    setAgentProfileJson(db, agent.name, { ...(profile as AgentProfile), mcpServers: servers });
    moved.push(agent.name);
  }
  if (moved.length) {
    compactAndForget(db);
  }
  return moved;
}
