// The kernel's runners: one McpRunner per (agent, server config), connected lazily the first time that
// agent's turn needs its tools, shared by every run of the agent, all closed on shutdown.
import { createHash } from 'node:crypto';
import type { McpServerConfig } from '../../shared/types.js';
import { McpRunner, type McpRunnerOptions } from './mcp-runner.js';
import type { SandboxPolicy } from '../sandbox/index.js';

export class RunnerPool {
  private runners = new Map<string, McpRunner>();
  private closed = false;

  constructor(private readonly opts: McpRunnerOptions = {}) {}

  /** The runner for this agent's server `name` (same config -> same connection). */
  get(agent: string, name: string, config: McpServerConfig, cwd?: string, sandbox?: SandboxPolicy): McpRunner {
    if (this.closed) throw new Error('The runner pool is closed.');
    const key = `${agent}\u0000${name}\u0000${createHash('sha256')
      .update(JSON.stringify([config, cwd ?? null, sandbox ?? null]))
      .digest('hex')}`;
    let r = this.runners.get(key);
    if (!r) {
      r = new McpRunner(name, config, { ...this.opts, ...(cwd ? { cwd } : {}), ...(sandbox ? { sandbox } : {}) });
      this.runners.set(key, r);
    }
    return r;
  }

  /** Drop (and close) an agent's runners: its profile changed or it was removed. */
  async forget(agent: string): Promise<void> {
    const mine = [...this.runners.entries()].filter(([k]) => k.startsWith(`${agent}\u0000`));
    for (const [k] of mine) this.runners.delete(k);
    await Promise.all(mine.map(([, r]) => r.close()));
  }

  /** The agents that have runners in the pool. */
  agents(): string[] {
    return [...new Set([...this.runners.keys()].map((k) => k.split('\u0000')[0]!))];
  }

  get size(): number {
    return this.runners.size;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.runners.values()];
    this.runners.clear();
    await Promise.all(all.map((r) => r.close()));
  }
}
