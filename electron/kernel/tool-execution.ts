// Executing a granted row: the tool runs with the run's abort signal; its completion is queued for the next
// group commit (row-endings.ts). A tool that throws or returns something that is not a tool result fails.
import type { RowPatch } from '../store/queries/row-updates.js';
import type { RowState, ToolResult } from '../../shared/types.js';
import * as results from './results.js';
import { processTracker, sandboxPolicy } from './containment.js';
import { queueEnd } from './row-endings.js';
import { runAbort, type KernelState } from './kernel-state.js';
import { toolFor } from './client-runs.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import type { ProcessTracker, Row, Run, ToolContext } from './types.js';
import { errorMessage } from '../../shared/errors.js';

export function executeRow(k: KernelState, run: Run, row: Row): void {
  k.live.add(row.id);
  const signal = runAbort(k, run.id).signal;
  const tool = toolFor(k, run, row);
  const done = (async () => {
    let result: ToolResult;
    let state: RowState = 'succeeded';
    let error: RowPatch['error'] = null;
    try {
      if (!tool) {
        const text = `No tool named ${row.tool} is available to this run.`;
        result = results.toolError(text, 'unknown_tool');
        state = 'failed';
        error = { code: 'unknown_tool', detail: text };
      } else {
        result = stopHookAnswer(k, row, checkResult(await tool.run(row.input, toolContext(k, run, row, signal))));
        if (result.isError) {
          const sc = result.structuredContent ?? {};
          state = sc.timed_out === true ? 'timed_out' : 'failed';
          const code = typeof sc.code === 'string' ? sc.code : state === 'timed_out' ? 'tool_timeout' : 'tool_error';
          error = {
            code,
            detail: result.content
              .map((c) => c.text)
              .join('\n')
              .slice(0, 1024),
          };
        }
      }
    } catch (e) {
      result = results.toolError(`The tool ${row.tool} failed: ${errorMessage(e)}`);
      state = 'failed';
      error = { code: 'tool_error', detail: errorMessage(e) };
    }
    k.inFlight.delete(row.id);
    k.stopHookRows.delete(row.id);
    if (k.phase === 'closed') return;
    queueEnd(k, row, state, { result, error });
  })();
  k.inFlight.set(row.id, { run_id: run.id, done });
}

/** A stop hook's bash that exited 2 asked for more work: that is its answer, recorded as such (not a failure). */
function stopHookAnswer(k: KernelState, row: Row, result: ToolResult): ToolResult {
  const sc = result.structuredContent;
  if (!result.isError || !k.stopHookRows.has(row.id) || sc?.exit_code !== 2 || sc.timed_out === true) return result;
  return { ...result, isError: false, structuredContent: { ...sc, decision: 'continue' } };
}

/**
 * What the tool runs with. The sandbox policy (a read of the agent's profile) and the process tracker are made
 * when a tool first asks for them: most tools start no process and never do.
 */
function toolContext(k: KernelState, run: Run, row: Row, signal: AbortSignal): ToolContext {
  let sandbox: SandboxPolicy | undefined;
  let processes: ProcessTracker | undefined;
  return {
    run,
    row,
    workspace: run.workspace,
    signal,
    get sandbox() {
      return (sandbox ??= sandboxPolicy(k, run));
    },
    get processes() {
      return (processes ??= processTracker(k, row.id, row.tool));
    },
  };
}

/** A tool result must be MCP CallToolResult-shaped; anything else is an error (never trusted as success). */
export function checkResult(r: unknown): ToolResult {
  const x = r as ToolResult;
  if (!x || typeof x !== 'object' || !Array.isArray(x.content) || !x.content.every((c) => c && c.type === 'text' && typeof c.text === 'string')) {
    throw new Error('the tool returned something that is not a tool result');
  }
  return x;
}
