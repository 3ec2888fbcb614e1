// createExternal(ports): connected clients (Claude Code, Codex). Installs the client executor (granted calls of a
// client's session are run by the client: the row only records that), returns the API handlers for the hook and
// for Settings ▸ Connections, and, after crash recovery, closes the cards of client calls nobody waits for any
// more (their hooks ended with the process that held them). electron/app.ts constructs it.
import { ApiFailure, type Handlers } from '../api/dispatch.js';
import { CLIENT_RUN_PREFIX } from '../kernel/client-runs.js';
import { defaultTarget } from '../kernel/effect.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Clock } from '../kernel/clock.js';
import type { Db } from '../store/db.js';
import { listParkedRowsOfCreator } from '../store/queries/rows.js';
import { methodNames } from '../../shared/api/contract.js';
import { externalMethods } from '../../shared/api/external.js';
import { insertRunEvent } from '../store/queries/events.js';
import type { ExecutorTool } from '../kernel/types.js';
import { ExternalService } from './service.js';
import { clientWallGap } from './client-wall.js';
import { connectionHandlers } from './connections.js';
import { clientEndedSession, startIdleSweep } from './session-end.js';
import { readSetting } from '../store/queries/settings.js';

/** The API methods this module answers (a bare kernel answers them "not available"). */
/** What this module serves: the contract's external group, by name. */
export const EXTERNAL_METHODS = methodNames(externalMethods);
export type ExternalMethods = (typeof EXTERNAL_METHODS)[number];

export interface ExternalPorts {
  db: Db;
  kernel: Kernel;
  clock: Clock;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Whether Stop all is engaged (governance): a client's call is then refused. */
  stopAll(): boolean;
  /** Cleanups before the kernel closes (the idle sweep's timer). */
  onClose?(fn: () => void): void;
}

export interface External {
  service: ExternalService;
  handlers: Pick<Handlers, ExternalMethods>;
}

export function createExternal(ports: ExternalPorts): External {
  const { kernel, db } = ports;
  const service = new ExternalService({
    kernel,
    clock: ports.clock,
    stopAll: ports.stopAll,
    dataDir: ports.dataDir,
    wallGap: (client, project, ev) => clientWallGap(client, project, ports.dataDir, ports.env, ev),
  });

  kernel.setClientExecutor((run, row): ExecutorTool => {
    const own = kernel.tools.find(run.id, row);
    const client = run.created_by?.split(':')[1] ?? 'the client';
    return {
      name: row.tool,
      description: `${row.tool}, run by ${client}`,
      inputSchema: { type: 'object' },
      target: (input, ws) => (own?.target ? own.target(input, ws) : defaultTarget(input)),
      preview: (input, ws) => {
        const patch = input && typeof input === 'object' ? (input as { patch?: unknown }).patch : undefined;
        return typeof patch === 'string' ? patch : own?.preview?.(input, ws);
      },
      run: async () => ({
        content: [{ type: 'text', text: `Allowed; ${client} runs this call itself. NEXUS did not run it and does not see its output.` }],
        structuredContent: { executed_by: 'client', client },
      }),
    };
  });

  const handlers: Pick<Handlers, ExternalMethods> = {
    externalToolUse: (input, ctx) => {
      // Only the control socket carries a client's hook: a window or a web page cannot answer for a client.
      if (ctx.door !== 'socket' && ctx.door !== 'internal')
        throw new ApiFailure(
          'forbidden',
          'Only a connected client’s hook asks whether its call may run, on the control socket (nexus connect installs it); a window or a web page cannot.',
        );
      return service.toolUse(input, ctx.signal, ctx.credential === 'hook');
    },
    externalSessionEnd: ({ client, event }, ctx) => {
      if (ctx.door !== 'socket' && ctx.door !== 'internal')
        throw new ApiFailure(
          'forbidden',
          'Only a connected client’s hook says that its session ended, on the control socket (nexus connect installs it); a window or a web page cannot.',
        );
      const run = clientEndedSession(kernel, ports.clock, client, event.session_id, event.reason);
      return { run_id: run?.id ?? null, status: run?.status ?? null };
    },
    ...connectionHandlers(ports),
  };

  // After recovery (app.ts starts the kernel after constructing the modules): a client call still parked has
  // nobody waiting for it.
  setImmediate(() => {
    if (!kernel.isOpen) return;
    for (const row of listParkedRowsOfCreator(db, CLIENT_RUN_PREFIX)) {
      insertRunEvent(db, {
        run_id: row.run_id,
        type: 'client_call_abandoned',
        data: { row_id: row.id, why: 'NEXUS restarted while the call waited; the client was already answered' },
        now: ports.clock.now(),
      });
      kernel.expire(row.id);
    }
  });

  const stopSweep = startIdleSweep(kernel, ports.clock, () => readSetting(db, 'clients.idleMinutes') * 60_000);
  ports.onClose?.(stopSweep);

  return { service, handlers };
}
