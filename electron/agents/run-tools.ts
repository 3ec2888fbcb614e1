// What a run may call and what its model is shown. Per run, once per process: the agent's runner (MCP)
// tools join the run's own tools under the names the model sees; the profile's `tools` list limits the
// kernel's global tools — but hooks and the kernel's own rows run their tools whatever the model may call.
import type { AgentRow } from '../store/queries/agents.js';
import type { RunnerPool } from '../runners/pool.js';
import { toolsForAgent } from '../runners/agent-tools.js';
import type { ModelToolSpec } from '../providers/types.js';
import type { Kernel } from '../kernel/kernel.js';
import type { ExecutorTool, Run } from '../kernel/types.js';
import { INTERNAL_TOOLS } from './internal-tools.js';
import { joinSecrets } from '../kernel/agent-secrets.js';
import type { McpServerConfig } from '../../shared/types.js';

const WIRE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export async function prepareRunTools(
  kernel: Kernel,
  runners: RunnerPool,
  agent: AgentRow,
  run: Run,
  event: (type: string, data: unknown) => void,
): Promise<void> {
  const reserved = kernel.tools.list().map((t) => t.name);
  if (agent.mcpServers && Object.keys(agent.mcpServers).length) {
    // The runner starts with the stored secret values put back (they are not in the profile).
    const servers: Record<string, McpServerConfig> = {};
    const unjoined: Array<{ server: string; message: string }> = [];
    for (const [name, cfg] of Object.entries(joinSecrets(agent.name, agent.mcpServers, kernel.secrets))) {
      if (cfg instanceof Error) unjoined.push({ server: name, message: cfg.message });
      else servers[name] = cfg;
    }
    const set = await toolsForAgent(runners, agent.name, servers, reserved, run.workspace, (cfg) =>
      kernel.sandboxPolicy(run, { network: cfg.network?.allow ?? [] }),
    );
    set.failures.push(...unjoined);
    // Both wire formats take tool names of letters, digits, _ and - (at most 64): others cannot be offered.
    for (const t of set.tools.filter((x) => !WIRE_NAME.test(x.name)))
      event('runner_tool_skipped', { server: t.server, tool: t.served, reason: 'the name is not a valid model tool name' });
    set.tools = set.tools.filter((x) => WIRE_NAME.test(x.name));
    // A tool shown under its plain name is also callable as NAME__<runner id>: rows are submitted under
    // that concrete callable, so each row keeps its runner (rules still match the served name).
    const aliases = set.tools.filter((t) => t.name !== t.qualified).map((t) => ({ ...t, name: t.qualified, aliasOf: t.name }));
    kernel.tools.addRunTools(run.id, [...set.tools, ...aliases]);
    for (const f of set.failures) event('runner_unavailable', f);
  }
  if (agent.tools) {
    const hookTools = Object.values(run.hooks).flatMap((list) => (list ?? []).map((h: { tool: string }) => h.tool));
    kernel.tools.limitRun(run.id, [...agent.tools, ...hookTools, ...INTERNAL_TOOLS]);
  }
}

/** The tools the model is shown: the run's runner tools, and the kernel's tools its profile allows. */
export function offeredTools(kernel: Kernel, agent: AgentRow, run: Run): ModelToolSpec[] {
  const allowed = agent.tools ? new Set(agent.tools) : null;
  return kernel.tools
    .forRun(run.id)
    .filter((t) => !INTERNAL_TOOLS.includes(t.name) && !('aliasOf' in t))
    .filter((t) => !allowed || allowed.has(t.name) || 'runner' in t)
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** The wire name a model's call is submitted under: a plain-named runner tool becomes its NAME__<runner id>. */
export function concreteWireName(kernel: Kernel, run: Run, name: string): string {
  const t = kernel.tools.forRun(run.id).find((x) => x.name === name) as (ExecutorTool & { qualified?: string; runner?: string }) | undefined;
  return t && typeof t.qualified === 'string' && typeof t.runner === 'string' ? t.qualified : name;
}
