// What a turn reads from the agent's profile and the settings: the agent must be active, the stop-hook cap
// (approval.stopHookCap, read fresh each time), the compaction budget.
import type { Db } from '../../store/db.js';
import { getAgent, type AgentRow } from '../../store/queries/agents.js';
import { DEFAULT_SETTINGS } from '../../../shared/types.js';
import { KernelError, notFound } from '../errors.js';
import type { Run } from '../types.js';

const DEFAULT_TOKEN_BUDGET = 24_000;

export function activeAgent(db: Db, name: string): AgentRow {
  const agent = getAgent(db, name);
  if (!agent) throw notFound('agent', name);
  if (agent.status === 'removed') throw new KernelError('agent_removed', `Agent ${name} was removed.`);
  return agent;
}

/** The setting's value when it is a whole number ≥ 0; the default when it is not or cannot be read. */
export function stopHookCap(read: (() => number) | undefined): number {
  try {
    const v = read?.();
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : DEFAULT_SETTINGS['approval.stopHookCap'];
  } catch {
    return DEFAULT_SETTINGS['approval.stopHookCap'];
  }
}

/** Compaction budget in estimated tokens: the profile's `context_budget_tokens`, else the engine's, else 24 000. */
export function tokenBudget(db: Db, run: Run, engineBudget: number | undefined): number {
  const agent = run.agent ? getAgent(db, run.agent) : null;
  const own = (agent as { context_budget_tokens?: unknown } | null)?.context_budget_tokens;
  return typeof own === 'number' && own > 0 ? own : (engineBudget ?? DEFAULT_TOKEN_BUDGET);
}
