// One run of an ACP agent (profile `acp: { command, args }`): NEXUS creates the run (the agent's mode and rules
// frozen, as for any run; it shows in Runs), starts the agent in the agent's sandbox, speaks ACP to it as the
// client (initialize, session/new in the run's workspace, one session/prompt, plus the lines NEXUS queues to an
// agent that queues prompts, such as a deny's reason), and ends the run with the agent's last answer. Stop all / stopping the run aborts the run's signal: NEXUS sends session/cancel and kills the process
// group at once (it does not wait for the agent to agree).
import { ndJsonStream, PROTOCOL_VERSION, type PromptResponse } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { Kernel } from '../../kernel/kernel.js';
import { createAgentRun, getAgentProfile, type ApprovalRequest } from '../../agents/profiles.js';
import { KernelError } from '../../kernel/errors.js';
import type { Run } from '../../kernel/types.js';
import { policyFor } from '../../sandbox/index.js';
import { startAgentProcess } from './agent-process.js';
import { nexusClient, type SessionState } from './client-handlers.js';
import { errorMessage } from '../../../shared/errors.js';

export const ACP_RUN_PREFIX = 'acp:';

/** Claude's adapter says it queues a prompt sent while one runs (`_meta.claudeCode.promptQueueing`). */
const QueuesPrompts = z.object({ claudeCode: z.object({ promptQueueing: z.literal(true) }) });

export interface AcpRun {
  run: Run;
  /** Settles with the ended run (never rejects). */
  done: Promise<Run>;
}

export interface AcpRunOptions {
  agent: string;
  prompt: string;
  /** A stricter mode or extra deny/ask rules for this run (never looser than the profile). */
  request?: ApprovalRequest;
  parent?: { run_id: string; row_id: string } | null;
  chain_id?: string | null;
}

/** Every ACP agent process this NEXUS started and that still runs: killed when NEXUS closes. */
const live = new Set<() => Promise<void>>();
/** The ACP runs this NEXUS drives (a running one not in it was left by a NEXUS that stopped). */
export const liveAcpRuns = new Set<string>();
let closing = false;
export const killAllAcpAgents = (): Promise<unknown> => {
  closing = true;
  return Promise.all([...live].map((kill) => kill()));
};

export const ORPHANED =
  "NEXUS stopped while this ACP agent's session ran, and the agent's process ended with it (its sandbox dies with NEXUS). Start a new run to ask it again.";

export function startAcpRun(kernel: Kernel, o: AcpRunOptions): AcpRun {
  const profile = getAgentProfile(kernel, o.agent);
  const acp = profile.acp;
  if (!acp) throw new KernelError('invalid_input', `Agent ${o.agent} is not an ACP agent (its profile has no "acp").`);
  const run = createAgentRun(kernel, {
    agent: o.agent,
    prompt: o.prompt,
    ...(o.request ? { request: o.request } : {}),
    parent: o.parent ?? null,
    chain_id: o.chain_id ?? null,
    created_by: `${ACP_RUN_PREFIX}${o.agent}`,
  });
  closing = false;
  liveAcpRuns.add(run.id);
  const signal = kernel.runSignal(run.id);
  const s: SessionState = { kernel, agent: o.agent, run_id: run.id, signal, answer: [], tell: null };
  const end = (status: 'succeeded' | 'failed' | 'canceled', error?: string): Run => {
    const now = kernel.getRun(run.id);
    if (!now || now.status !== 'running') return now ?? run;
    return kernel.endRun(run.id, { status, final_answer: s.answer.join('') || null, error: error ?? null });
  };
  const done = (async (): Promise<Run> => {
    const policy = policyFor(profile, { workspace: run.workspace, dataDir: kernel.dataDir });
    const proc = await startAgentProcess(acp, policy, { processes: kernel.records.processes(`acp agent ${o.agent}`) });
    if ('refusal' in proc) return end('failed', `The ACP agent was not started: ${proc.refusal}`);
    const conn = nexusClient(s).connect(ndJsonStream(proc.input, proc.output));
    let sessionId: string | null = null;
    const stop = () => {
      if (sessionId) void conn.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
      void proc.kill();
    };
    signal.addEventListener('abort', stop, { once: true });
    live.add(proc.kill);
    // A process that dies ends the connection: pending requests reject instead of waiting for ever.
    void proc.exited.then(() => conn.close(new Error('the ACP agent exited')));
    try {
      if (signal.aborted) return end('canceled');
      const init = await conn.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: 'nexus', version: '0.1.0' },
      });
      const session = await conn.agent.request('session/new', { cwd: run.workspace, mcpServers: [] });
      sessionId = session.sessionId;
      const queued: Array<Promise<PromptResponse>> = [];
      const id = sessionId;
      if (QueuesPrompts.safeParse(init.agentCapabilities?._meta).success)
        s.tell = (text) => {
          const p = conn.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text }] });
          p.catch(() => undefined); // awaited below; if the first prompt fails first, nobody else would observe it
          queued.push(p);
        };
      let res = await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: o.prompt }] });
      // A queued line takes the turn over (the first prompt ends when the agent reads it): the last answer is the run's.
      for (const next of queued) res = await next; // the array iterator sees lines queued meanwhile
      return end(
        res.stopReason === 'cancelled' ? 'canceled' : res.stopReason === 'end_turn' ? 'succeeded' : 'failed',
        res.stopReason === 'end_turn' ? undefined : `The ACP agent stopped: ${res.stopReason}`,
      );
    } catch (e) {
      if (closing) return end('failed', ORPHANED);
      const tail = proc.stderrTail().trim().split('\n').slice(-3).join(' | ');
      return end('failed', `The ACP agent failed: ${errorMessage(e)}${tail ? ` (its stderr: ${tail})` : ''}`);
    } finally {
      signal.removeEventListener('abort', stop);
      conn.close();
      await proc.kill();
      live.delete(proc.kill);
    }
  })()
    .catch((e: unknown) => end('failed', errorMessage(e)))
    .finally(() => liveAcpRuns.delete(run.id));
  return { run, done };
}
