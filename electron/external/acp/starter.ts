// How an ACP agent's run starts from every door NEXUS's own agents start from (`nexus run`, the window, a
// delegate_task hop): the turn engine hands an agent whose profile has `acp` to startAcpRun instead of its own
// model loop. NEXUS closing kills every ACP agent process it started; at the next start their runs end failed.
import type { TurnEngine } from '../../agents/engine.js';
import type { AgentStarter } from '../../agents/turn-options.js';
import type { Kernel } from '../../kernel/kernel.js';
import { ACP_RUN_PREFIX, killAllAcpAgents, liveAcpRuns, ORPHANED, startAcpRun } from './acp-run.js';
import { log } from '../../log.js';

/** After a restart: an ACP run still `running` has no process behind it any more. It ends failed, its cards close. */
export function endOrphanedAcpRuns(kernel: Kernel): string[] {
  const ended: string[] = [];
  for (const r of kernel.records.runs({ status: 'running', limit: 1_000_000 })) {
    if (!r.created_by?.startsWith(ACP_RUN_PREFIX) || liveAcpRuns.has(r.id)) continue;
    kernel.endRun(r.id, { status: 'failed', error: ORPHANED });
    ended.push(r.id);
  }
  return ended;
}

export function acpStarter(kernel: Kernel): AgentStarter {
  return (agent, o) => {
    if (!agent.acp) return null;
    const started = startAcpRun(kernel, {
      agent: agent.name,
      prompt: o.prompt,
      request: { ...(o.mode ? { mode: o.mode } : {}), ...(o.extra_rules !== undefined ? { extra_rules: o.extra_rules } : {}) },
      parent: o.parent ?? null,
      chain_id: o.chain?.chain_id ?? o.chain_id ?? null,
    });
    void started.done.catch((e: unknown) => log.error(`the ACP run ${started.run.id} failed`, e));
    return started.run;
  };
}

export function installAcpAgents(turns: TurnEngine, kernel: Kernel, onClose: (fn: () => Promise<unknown>) => void): void {
  turns.setStarter(acpStarter(kernel));
  onClose(() => killAllAcpAgents());
  setImmediate(() => {
    if (kernel.isOpen) endOrphanedAcpRuns(kernel);
  });
}
