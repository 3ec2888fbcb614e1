// The effect profile frozen on a parked row: what the approver reads (DESIGN §2). Built from the run's frozen
// settings, the resolved call, and the tool's own target/preview (a unified diff for write/edit).
import type { ApprovalRule, EffectProfile } from '../../shared/types.js';
import type { ExecutorTool, Row, Run } from './types.js';
import { CLIENT_RUN_PREFIX, isClientRun } from './client-runs.js';

const TARGET_KEYS = ['path', 'command', 'url', 'agent', 'file_path', 'cmd', 'name'];
const MAX_TARGET = 500;

/** A best-effort one-line target for tools that do not describe their own. */
export function defaultTarget(input: unknown): string {
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    for (const k of TARGET_KEYS) {
      const v = o[k];
      if (typeof v === 'string' && v) return v.slice(0, MAX_TARGET);
      if (Array.isArray(v) && v.every((w) => typeof w === 'string')) return v.join(' ').slice(0, MAX_TARGET);
    }
  }
  let text: string;
  try {
    text = JSON.stringify(input) ?? '';
  } catch {
    text = String(input);
  }
  return text.length > MAX_TARGET ? `${text.slice(0, MAX_TARGET)}…` : text;
}

export function targetOf(tool: ExecutorTool | undefined, input: unknown, workspace: string): string {
  if (tool?.target) {
    try {
      return tool.target(input, workspace);
    } catch {
      /* a tool's describer must not decide anything: fall back */
    }
  }
  return defaultTarget(input);
}

/** The call a card is about, as the kernel resolved it (the target from the tool's own describer, `targetOf`). */
export interface EffectCall {
  agent: string | null;
  tool: string;
  target: string;
  input: unknown;
  runner: string | null | undefined;
  /** The tool's own preview (a unified diff for write/edit), if it has one. */
  diff: string | undefined;
}
/** An effect profile with no autonomy mode behind it: an orchestration hold's card (the chain's policy asking). */
export type CallEffect = Omit<EffectProfile, 'mode' | 'client'>;

/**
 * What a person reads about a call on any card, whoever asks: the input it would run with, its target, the
 * workspace, the runner, whether it runs outside the OS sandbox, and for write/edit the diff. The one builder
 * of an effect profile: an autonomy card adds its mode, matched rules and client (buildEffect); a hold adds
 * nothing. The caller hands in target and diff from the tool's describer: a preview that throws refuses an
 * autonomy park (fail closed) but leaves a hold's card without a diff (the gate never fails on a preview).
 */
export function callEffect(run: Run, call: EffectCall, sandboxed: boolean, matched: ApprovalRule[] = []): CallEffect {
  const effect: CallEffect = { agent: call.agent, tool: call.tool, target: call.target, input: call.input, matched_rules: matched, workspace: run.workspace };
  if (call.runner) effect.runner = call.runner;
  if (!sandboxed) effect.sandboxed = false;
  if (call.diff !== undefined) effect.diff = call.diff;
  return effect;
}

/** An autonomy card's effect profile: the call's, with the agent's mode, the rules that matched and the client. */
export function buildEffect(
  run: Run,
  row: Row,
  tool: ExecutorTool | undefined,
  resolvedTool: string,
  matched: readonly number[],
  sandboxed: boolean,
): EffectProfile {
  const target = targetOf(tool, row.input, run.workspace);
  const call = { agent: run.agent, tool: resolvedTool, target, input: row.input, runner: row.runner, diff: tool?.preview?.(row.input, run.workspace) };
  const rules = matched.map((i) => run.rules[i]).filter((r) => r !== undefined);
  const effect: EffectProfile = { ...callEffect(run, call, sandboxed, rules), mode: run.mode };
  if (isClientRun(run)) {
    // created_by is `client:<name>:<session id>`; the folder is the session's working folder.
    const [name = '', ...session] = run.created_by!.slice(CLIENT_RUN_PREFIX.length).split(':');
    effect.client = { name, session_id: session.join(':'), folder: run.workspace, tool_name: row.wire_tool };
  }
  return effect;
}
