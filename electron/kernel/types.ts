// The kernel's own types: runs, rows, executor tools, the hop gate. Rows and runs are returned in the
// shape the API views use (shared/api/runs.ts RowView / RunSummary), with a few more fields.
import type { ApprovalRule, LifecycleHooks, Mode, OnFailure, Origin, ToolResult } from '../../shared/types.js';
import type { CompiledRules } from '../../shared/rules/index.js';
import type { Row, Run } from '../store/records.js';
import type { ExecutorTool } from '../sandbox/tool.js';

// Runs and rows are what the store keeps; a tool and its context are what the sandbox layer runs. Both sit
// below the kernel (so runners and queries need not import it) and are re-exported here for the kernel's users.
export type { Row, RowError, RowGrantedBy, Run } from '../store/records.js';
export type { ExecutorTool, ProcessTracker, ToolContext } from '../sandbox/tool.js';

export interface HopGateCall {
  run: Run;
  row_id: string;
  wire_tool: string;
  tool: string;
  runner: string | null;
  input: unknown;
  origin: Origin;
}
/**
 * `approved_by`: the person who approved this hop at its orchestration hold (`person:<door>`), recorded on the row.
 * `after`: what the decision causes that others can see (cards announced, events, timers). The gate's writes
 * commit with the row's decision; `after` runs only once that transaction has committed, and never if it rolls back.
 */
export type HopGateDecision = ({ proceed: true; approved_by?: string } | { proceed: false; result: ToolResult }) & {
  /** The row is this hop of its chain: recorded on the row (rows.hop), in the transaction that decides it. */
  hop?: number;
  after?: () => void;
};
/** Called for every model row before the approval stage; GOVERNANCE installs the orchestration gate here. */
export type HopGate = (call: HopGateCall) => HopGateDecision;

/**
 * For a client-executed run (client-runs.ts): the tool that describes a row on its card (target, diff) and
 * "runs" it once granted, which only records that the client executes it. Must not throw.
 */
export type ClientExecutor = (run: Run, row: Row) => ExecutorTool;

export interface CreateRunOptions {
  agent: string | null;
  mode: Mode;
  /**
   * The rules frozen on the run: compiled (shared/rules compileRules; its `.rules` JSON is what is stored)
   * or a plain list, validated and compiled here. Absent: no rules.
   */
  rules?: readonly ApprovalRule[] | CompiledRules;
  hooks?: LifecycleHooks;
  /** Defaults: the agent's workspace, else <workspacesDir>/<agent or run id> (workspaces-root.ts; an agent's
   *  older workspace <dataDir>/workspaces/<agent>, if it exists, is kept). Created if missing. */
  workspace?: string;
  prompt?: string | null;
  parent?: { run_id: string; row_id: string } | null;
  chain_id?: string | null;
  created_by?: string | null;
}

export interface SubmitRowOptions {
  /** The wire name (resolved by the rules engine before matching). */
  tool: string;
  input: unknown;
  origin: Origin;
  round?: number | null;
  on_failure?: OnFailure;
  /** How long a card for this row may wait (ms; at most PARK_DURATION_MS): a connected client's hook waits only so long. */
  park_ms?: number;
  /**
   * A stop hook's row (DESIGN §4): a bash exit 2 is the hook asking for more work, its answer, not a failure,
   * so the row is recorded as succeeded with `decision: "continue"` rather than `failed tool_error`.
   */
  stop_hook?: boolean;
  /** A connected client's call that asks to leave the client's own sandbox (shared/rules/escape.ts): the sentence
   *  the approver reads. Such a row is never granted by a rule, a mode or trust; it always parks. */
  escape?: string;
}
