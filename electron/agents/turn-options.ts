// What the turn engine is built with (TurnEngineOptions), what starts a turn (StartTurnOptions), and who starts
// the runs of an agent whose loop is not the engine's (AgentStarter).
import type { Db } from '../store/db.js';
import type { AgentRow } from '../store/queries/agents.js';
import type { RunnerPool } from '../runners/pool.js';
import type { Mode } from '../../shared/types.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Run } from '../kernel/types.js';
import type { RunResourceOptions } from './run-resources.js';

/** Starts a run of an agent whose loop is not this engine's (its profile says so), or returns null. */
export type AgentStarter = (agent: AgentRow, o: StartTurnOptions) => Run | null;

export interface StartTurnOptions {
  agent: string;
  prompt: string;
  /** Continue in an existing run instead of creating one (same as continueRun). */
  run?: string;
  mode?: Mode;
  extra_rules?: unknown;
  chain?: { chain_id: string; depth?: number };
  chain_id?: string | null;
  parent?: { run_id: string; row_id: string } | null;
  created_by?: string | null;
}

/** keyStore and provider options reach the run's model provider (run-resources.ts). */
export interface TurnEngineOptions extends RunResourceOptions {
  kernel: Kernel;
  /** The agents' own tables (the conversation, turn state, questions); the kernel's are reached through it. */
  db: Db;
  runners?: RunnerPool;
  /** Setting approval.stopHookCap, read fresh each time (GOVERNANCE's settings store). */
  stopHookCap?: () => number;
  /** Compaction budget in estimated tokens (a profile's `context_budget_tokens` overrides it). */
  tokenBudget?: number;
}
