// createTurns(ports): the turn engine (rounds, hooks, compaction, ask, runners), closed (runners' child processes
// included) when NEXUS closes. electron/app.ts constructs it and hands it to governance and the API.
import type { Db } from '../store/db.js';
import type { Kernel } from '../kernel/kernel.js';
import type { KeyStore } from '../providers/keys.js';
import { TurnEngine } from './engine.js';

export interface TurnsPorts {
  kernel: Kernel;
  /** The store the agents keep their own tables in (the conversation, turn state, questions). */
  db: Db;
  env: NodeJS.ProcessEnv;
  /** Provider keys (the desktop app's keychain; headless: none, keys come from the environment). */
  keyStore: KeyStore;
  /** The approval.stopHookCap setting, read at each use (governance's settings store owns it). */
  stopHookCap: () => number;
  onClose(fn: () => void | Promise<void>): void;
}

export function createTurns(ports: TurnsPorts): TurnEngine {
  const { kernel, env } = ports;
  const timeout = Number(env.NEXUS_MODEL_TIMEOUT_S);
  const engine = new TurnEngine({
    kernel,
    db: ports.db,
    keyStore: ports.keyStore,
    provider: { env, ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}) },
    stopHookCap: ports.stopHookCap,
    ...(Number(env.NEXUS_CONTEXT_BUDGET_TOKENS) > 0 ? { tokenBudget: Number(env.NEXUS_CONTEXT_BUDGET_TOKENS) } : {}),
  });
  ports.onClose(() => engine.close());
  // Runs that were mid-turn when NEXUS stopped resume once the kernel has run its crash recovery.
  setImmediate(() => {
    if (kernel.isOpen) engine.recover();
  });
  return engine;
}
