// Plugs turns into the composition root (electron/app.ts SETUPS): the engine (rounds, hooks, compaction,
// ask, runners) as `nexus.services.turns`, closed (runners' child processes included) when NEXUS closes.
import type { Nexus } from '../../app.js';
import type { KeyStore } from '../../providers/keys.js';
import { readSetting } from '../../governance/settings.js';
import { TurnEngine } from './engine.js';

declare module '../../app.js' {
  interface NexusServices {
    turns?: TurnEngine;
    keyStore?: KeyStore;
  }
}

export function setupTurns(nexus: Nexus): void {
  const timeout = Number(nexus.env.NEXUS_MODEL_TIMEOUT_S);
  const engine = new TurnEngine({
    kernel: nexus.kernel,
    // The window installs a safeStorage-backed store after start; read it at each use.
    keyStore: { get: (agent) => (nexus.services.keyStore as KeyStore | undefined)?.get(agent) },
    provider: { env: nexus.env, ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}) },
    stopHookCap: () => readSetting(nexus.db, 'approval.stopHookCap'),
    ...(Number(nexus.env.NEXUS_CONTEXT_BUDGET_TOKENS) > 0 ? { tokenBudget: Number(nexus.env.NEXUS_CONTEXT_BUDGET_TOKENS) } : {}),
  });
  nexus.services.turns = engine;
  nexus.onClose(() => engine.close());
  // Runs that were mid-turn when NEXUS stopped resume once the kernel has run its crash recovery.
  setImmediate(() => {
    if (nexus.kernel.isOpen) engine.recover();
  });
}
