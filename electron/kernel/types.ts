// The kernel's own types: runs, rows, executor tools, the hop gate. Rows and runs are returned in the
// shape the API views use (shared/api/kernel.ts RowView / RunSummary), with a few more fields.
import type {
  ApprovalRule,
  EffectProfile,
  GrantedBy,
  LifecycleHooks,
  Mode,
  OnFailure,
  Origin,
  RowState,
  RunStatus,
  ToolResult,
} from '../../shared/types.js';
import type { CompiledRules } from '../../shared/rules/index.js';
import type { SandboxPolicy } from './sandbox/policy.js';
import type { ProcessTracker } from './tools/bash.js';

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

export interface ToolContext {
  run: Run;
  row: Row;
  /** The run's workspace, already a realpath. */
  workspace: string;
  /** Aborted when the run is stopped (or the kernel closes): stop work, resolve soon. */
  signal: AbortSignal;
  /** The OS sandbox every process the call starts runs in (from the run's agent profile). */
  sandbox?: SandboxPolicy;
  /** Records a started process group in the store before its command runs (crash recovery kills it). */
  processes?: ProcessTracker;
}

/** A tool the executor can perform. Built-ins, runner (MCP) tools and governance tools all take this shape. */
export interface ExecutorTool {
  name: string;
  description: string;
  /** JSON schema of the input, as models are shown it. */
  inputSchema: Record<string, unknown>;
  run(input: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** What the approver reads as the target (a path, a command, a URL). Must not throw for bad input. */
  target?(input: unknown, workspace: string): string;
  /** A unified diff of what the call would change, computed when the row parks (write/edit). */
  preview?(input: unknown, workspace: string): string | undefined;
  /** Planted by the kernel only (origin kernel): a row of another origin naming it can never run. */
  kernelOnly?: boolean;
}

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
export type HopGateDecision = ({ proceed: true; approved_by?: string } | { proceed: false; result: ToolResult }) & { after?: () => void };
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
}
