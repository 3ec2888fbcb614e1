// Runs and rows as the store returns them (queries/runs.ts, queries/rows.ts): the shape the API views use
// (shared/api/runs.ts RowView / RunSummary), with a few more fields. The kernel re-exports them.
import type { ApprovalRule, GrantedBy, LifecycleHooks, Mode, OnFailure, Origin, RowState, RunStatus, ToolResult, EffectProfile } from '../../shared/types.js';

/** How a row crossed the stage: the stage's own words plus a person's approval and a session trust. */
export type RowGrantedBy = GrantedBy | 'person' | 'trust';

export interface RowError {
  code: string;
  detail: string;
}

export interface Row {
  id: string;
  run_id: string;
  seq: number;
  origin: Origin;
  /** The name the call used on the wire. */
  wire_tool: string;
  /** The resolved execution name (kernel aliases and runner routes applied): what rules matched. */
  tool: string;
  runner: string | null;
  input: unknown;
  state: RowState;
  round: number | null;
  on_failure: OnFailure;
  granted_by: RowGrantedBy | null;
  approved_by: string | null;
  /** Indexes (into the run's frozen rules) of every rule that matched at the stage. */
  matched: number[];
  /** Who a parked row waits on: `executor:<agent>`, or null (a person's own run, or a revoked executor). */
  addressee: string | null;
  effect: EffectProfile | null;
  expires_at: string | null;
  error: RowError | null;
  result: ToolResult | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface Run {
  id: string;
  agent: string | null;
  status: RunStatus;
  mode: Mode;
  rules: ApprovalRule[];
  hooks: LifecycleHooks;
  workspace: string;
  prompt: string | null;
  final_answer: string | null;
  error: string | null;
  parent: { run_id: string; row_id: string } | null;
  chain_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}
