// Executor tools: built-ins and what other modules register globally (governance's delegate_task,
// message_agent) or per run (a runner's MCP tools, by their wire names), plus an optional per-run limit
// (an agent profile's `tools` list). A row's tool is looked up by its wire name, then its resolved name.
import type { ExecutorTool, Row } from './types.js';
import { KernelError } from './errors.js';
import { resolveToolName } from '../../shared/rules/tool-names.js';

export class ToolRegistry {
  private global = new Map<string, ExecutorTool>();
  private perRun = new Map<string, Map<string, ExecutorTool>>();
  private limits = new Map<string, Set<string>>();

  register(tool: ExecutorTool, opts: { replace?: boolean } = {}): void {
    if (!tool || typeof tool.name !== 'string' || !tool.name || typeof tool.run !== 'function')
      throw new KernelError('invalid_input', 'a tool needs a name and a run function');
    if (this.global.has(tool.name) && !opts.replace) throw new KernelError('conflict', `a tool named ${tool.name} is already registered`);
    this.global.set(tool.name, tool);
  }
  unregister(name: string): void {
    this.global.delete(name);
  }

  /** Tools only this run can call (e.g. its runners' MCP tools, named as the model sees them). */
  addRunTools(run_id: string, tools: readonly ExecutorTool[]): void {
    let m = this.perRun.get(run_id);
    if (!m) this.perRun.set(run_id, (m = new Map()));
    for (const t of tools) m.set(t.name, t);
  }

  /** Limit the run to these global tools (its own run tools stay available). null lifts the limit. */
  limitRun(run_id: string, names: readonly string[] | null): void {
    if (names === null) this.limits.delete(run_id);
    else this.limits.set(run_id, new Set(names));
  }

  forgetRun(run_id: string): void {
    this.perRun.delete(run_id);
    this.limits.delete(run_id);
  }

  /**
   * The tool a row executes, or undefined (the row then fails `unknown_tool`, after the stage). A runner-routed
   * call (`NAME__<12 hex>`) executes only the run tool registered under that exact callable: never a kernel
   * tool of the same name (the row keeps its concrete runner target; the rules judged the served NAME).
   */
  find(run_id: string, row: Pick<Row, 'wire_tool' | 'tool'> & { origin?: Row['origin']; runner?: string | null }): ExecutorTool | undefined {
    const own = this.perRun.get(run_id);
    const resolved = resolveToolName(row.wire_tool);
    const runner = row.runner !== undefined ? row.runner : resolved.runner;
    if (runner) return own?.get(row.wire_tool);
    // A kernel alias (Bash, Read, shell, …) was judged as the kernel's tool: it runs the kernel's tool.
    const hit = resolved.alias ? undefined : (own?.get(row.wire_tool) ?? own?.get(row.tool));
    if (hit) return hit;
    const limit = this.limits.get(run_id);
    for (const name of [row.wire_tool, row.tool]) {
      const t = this.global.get(name);
      // The limit is the model's: kernel rows (hooks, acceptance checks) run their tools whatever it allows.
      if (t && (!limit || limit.has(name) || row.origin === 'kernel')) return t;
    }
    return undefined;
  }

  /** What a run may call (what a model is shown): its own tools, then the global ones its limit allows. */
  forRun(run_id: string): ExecutorTool[] {
    const own = [...(this.perRun.get(run_id)?.values() ?? [])];
    const limit = this.limits.get(run_id);
    const seen = new Set(own.map((t) => t.name));
    return [...own, ...[...this.global.values()].filter((t) => !seen.has(t.name) && (!limit || limit.has(t.name)))];
  }

  list(): ExecutorTool[] {
    return [...this.global.values()];
  }
}
