// What a tool call runs with: the executor-tool contract that the kernel's built-ins, runner (MCP) tools and
// governance tools all implement. It sits with the sandbox because every process a call starts runs inside it.
import type { ToolResult } from '../../shared/types.js';
import type { Row, Run } from '../store/records.js';
import type { SandboxPolicy } from './policy.js';

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

/** Where a row's process group is recorded (store, migration 005) before its command runs. */
export interface ProcessTracker {
  started(pgid: number, start_time: string): void;
  ended(pgid: number, start_time: string): void;
}
