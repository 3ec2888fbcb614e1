// What the model is told (DESIGN §3), and how big its conversation is.

export type HookEvent = 'turn_start' | 'pre_compact' | 'post_compact' | 'stop';
import type { ConvMessage } from '../providers/types.js';

/** The standing instructions every agent gets, after its own (DESIGN §3: report a denial, never retry it). */
export function systemPrompt(a: { agent: string; instructions?: string; workspace: string }): string {
  return [
    a.instructions?.trim() ?? '',
    `You are the NEXUS agent "${a.agent}". Your workspace folder is ${a.workspace}; file tools are confined to it.`,
    'Every tool call you make crosses an approval stage: it may run at once, wait for a person, or be refused. A refusal is data: read it and adapt, do not repeat the same call.',
    'If a tool result reports an orchestration denial (a code such as orchestration_stopped, orchestration_not_entitled, orchestration_disabled, orchestrator_not_allowed, chain_depth_exceeded, chain_agents_exceeded, or hop_refused), report it in your answer rather than retrying.',
    'If a call is held for orchestration approval (hop_held), do not retry it until you are told the answer; then retry it once if approved, or report the refusal.',
    'When you are done, answer without calling any tool: that answer is your final answer.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** ~4 characters per token: enough to decide when to compact, never used for billing. */
export function estimateTokens(system: string, messages: readonly ConvMessage[]): number {
  let chars = system.length;
  for (const m of messages) chars += JSON.stringify(m).length;
  return Math.ceil(chars / 4);
}
