// What a run's turns build once and reuse: its model provider (key resolved, credentials fence checked) and
// its tools (the agent's MCP servers started and their tools added to the run). Dropped when the run ends;
// rebuilt if it re-opens for another turn.
import type { Db } from '../store/db.js';
import { createProvider, ProviderError, type KeyStore, type ModelProvider, type ProviderOptions } from '../providers/index.js';
import type { RunnerPool } from '../runners/pool.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Run } from '../kernel/types.js';
import { prepareRunTools } from './run-tools.js';
import { activeAgent } from './turn-limits.js';

export interface RunResourceOptions {
  keyStore?: KeyStore;
  provider?: Pick<ProviderOptions, 'timeoutMs' | 'maxRetries' | 'stream' | 'env'>;
}

export class RunResources {
  private readonly providers = new Map<string, ModelProvider>();
  private readonly prepared = new Set<string>();

  constructor(
    private readonly kernel: Kernel,
    private readonly db: Db,
    private readonly runners: RunnerPool,
    private readonly opts: RunResourceOptions,
    private readonly event: (run_id: string, type: string, data?: unknown) => void,
  ) {}

  async provider(run: Run): Promise<ModelProvider> {
    let p = this.providers.get(run.id);
    if (!p) {
      const agent = activeAgent(this.db, run.agent!);
      if (agent.credentials_fenced) throw new ProviderError('provider_no_key', `Agent ${agent.name}'s credentials are fenced.`);
      p = await createProvider(agent.model, agent.name, { keyStore: this.opts.keyStore, ...this.opts.provider });
      this.providers.set(run.id, p);
    }
    return p;
  }

  /** The run's tools, prepared once per run (a standalone run has none to prepare). */
  async prepareTools(run: Run): Promise<void> {
    if (this.prepared.has(run.id) || !run.agent) return;
    this.prepared.add(run.id);
    await prepareRunTools(this.kernel, this.runners, activeAgent(this.db, run.agent), run, (type, data) => this.event(run.id, type, data));
  }

  dropProvider(run_id: string): void {
    this.providers.delete(run_id);
  }

  /** The run ended: provider and prepared tools are rebuilt if it re-opens. */
  forget(run_id: string): void {
    this.prepared.delete(run_id);
    this.providers.delete(run_id);
  }
}
