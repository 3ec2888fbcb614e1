// An agent's runner tools as executor tools, under the names the model sees (DESIGN §2 "Tool names"):
// a tool served by exactly one of the agent's runners, and not shadowing a kernel tool, keeps its served
// name; otherwise every runner's copy is offered qualified as NAME__<12 hex runner id>. Either way the
// call is performed under its SERVED name by its concrete runner, and rules match the served name.
import type { McpServerConfig, ToolResult } from '../../shared/types.js';
import type { ExecutorTool } from '../sandbox/tool.js';
import type { McpRunner } from './mcp-runner.js';
import type { RunnerPool } from './pool.js';
import type { SandboxPolicy } from '../sandbox/index.js';
import { qualifiedName } from './runner-id.js';

export interface RunnerTool extends ExecutorTool {
  /** The served name (what rules match). */
  served: string;
  /** The concrete runner id (12 hex). */
  runner: string;
  /** The server's config name. */
  server: string;
  /** NAME__<runner id>: the concrete callable, whatever name the model is shown. */
  qualified: string;
}

export interface RunnerToolSet {
  tools: RunnerTool[];
  /** Servers that could not be reached: their tools are absent; the turn reports them. */
  failures: Array<{ server: string; message: string }>;
}

function runnerTool(r: McpRunner, served: { name: string; description: string; inputSchema: Record<string, unknown> }, wire: string): RunnerTool {
  return {
    name: wire,
    served: served.name,
    runner: r.id,
    qualified: qualifiedName(served.name, r.id),
    server: r.name,
    description: `${served.description} (MCP server ${r.name})`,
    inputSchema: served.inputSchema,
    target: (input) => `${r.name}:${served.name}${input && typeof input === 'object' ? ` ${JSON.stringify(input).slice(0, 200)}` : ''}`,
    run: (input, ctx): Promise<ToolResult> => r.call(served.name, input, ctx.signal),
  };
}

export async function toolsForAgent(
  pool: RunnerPool,
  agent: string,
  servers: Record<string, McpServerConfig> | undefined,
  reserved: Iterable<string>,
  cwd?: string,
  /** The sandbox of each stdio server (the agent's, with the server's own network allow list). */
  sandboxFor?: (cfg: McpServerConfig) => SandboxPolicy,
): Promise<RunnerToolSet> {
  const failures: RunnerToolSet['failures'] = [];
  const listed: Array<{ runner: McpRunner; tools: Awaited<ReturnType<McpRunner['listTools']>> }> = [];
  for (const [name, cfg] of Object.entries(servers ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    try {
      const runner = pool.get(agent, name, cfg, cwd, sandboxFor?.(cfg));
      listed.push({ runner, tools: await runner.listTools() });
    } catch (e) {
      failures.push({ server: name, message: (e as Error).message });
    }
  }
  const count = new Map<string, number>();
  for (const l of listed) for (const t of l.tools) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const taken = new Set(reserved);
  const tools: RunnerTool[] = [];
  for (const l of listed) {
    for (const t of l.tools) {
      const plain = count.get(t.name) === 1 && !taken.has(t.name) && !/__[0-9a-f]{12}$/.test(t.name);
      tools.push(runnerTool(l.runner, t, plain ? t.name : qualifiedName(t.name, l.runner.id)));
    }
  }
  return { tools, failures };
}
