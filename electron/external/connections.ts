// Settings ▸ Connections: the API handlers over connect/plan.ts. The kernel's process edits the person's client
// settings (the window has no file access); a plan is always shown before apply writes.
import { ApiFailure, type Handlers } from '../api/dispatch.js';
import { apply, plan, status, type Client, type Scope } from './connect/plan.js';
import { errorMessage } from '../../shared/errors.js';

interface Target {
  client: Client;
  scope: Scope;
  project?: string;
  action: 'connect' | 'disconnect';
}

const failing = async <T>(f: () => T | Promise<T>): Promise<T> => {
  try {
    return await f();
  } catch (e) {
    throw new ApiFailure('connection_failed', errorMessage(e));
  }
};

/** Where this NEXUS keeps its data (the hook command names it) and the environment that finds the clients. */
export interface ConnectionPorts {
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

export function connectionHandlers(nexus: ConnectionPorts): Pick<Handlers, 'connectionsList' | 'connectionsPlan' | 'connectionsApply'> {
  const target = (t: Target) => ({ client: t.client, scope: t.scope, project: t.project, dataDir: nexus.dataDir, env: nexus.env });
  return {
    connectionsList: () => [
      status({ client: 'claude-code', scope: 'user', dataDir: nexus.dataDir, env: nexus.env }),
      status({ client: 'codex', scope: 'user', dataDir: nexus.dataDir, env: nexus.env }),
      status({ client: 'gemini', scope: 'user', dataDir: nexus.dataDir, env: nexus.env }),
      status({ client: 'opencode', scope: 'user', dataDir: nexus.dataDir, env: nexus.env }),
    ],
    connectionsPlan: (t: Target) => failing(() => plan(target(t), t.action)),
    connectionsApply: (t: Target) => failing(() => apply(target(t), t.action)),
  };
}
