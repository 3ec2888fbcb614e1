// What a turn reads from the agent's profile and the settings: the agent must be active, the stop-hook cap
// (approval.stopHookCap, read fresh each time), the compaction budget.
import type { Db } from '../store/db.js';
import { getAgent, type AgentRow } from '../store/queries/agents.js';
import { DEFAULT_SETTINGS } from '../../shared/types.js';
import { KernelError, notFound } from '../kernel/errors.js';
import type { Run } from '../kernel/types.js';

const DEFAULT_TOKEN_BUDGET = 24_000;
/** The runaway budget when the profile says nothing (docs/security.md): a lone run cannot loop for ever. */
export const DEFAULT_MAX_ROUNDS = 200;
export const DEFAULT_MAX_ROWS = 2_000;

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

/** The sentence a run ends with when its runaway budget is spent; null while it is not. */
export function budgetSpent(agent: AgentRow | null, used: { rounds: number; rows: number }): string | null {
  const maxRounds = agent?.max_rounds ?? DEFAULT_MAX_ROUNDS;
  const maxRows = agent?.max_rows ?? DEFAULT_MAX_ROWS;
  const fix = `start a new run to go on, or raise it in the agent file`;
  if (used.rounds >= maxRounds)
    return `The run reached its round limit (${maxRounds} model rounds, max_rounds) and was ended so a looping agent cannot run on: ${fix}.`;
  if (used.rows >= maxRows) return `The run reached its row limit (${maxRows} tool calls, max_rows) and was ended so a looping agent cannot run on: ${fix}.`;
  return null;
}
