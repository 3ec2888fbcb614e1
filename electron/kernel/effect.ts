// The effect profile frozen on a parked row: what the approver reads (DESIGN §2). Built from the run's frozen
// settings, the resolved call, and the tool's own target/preview (a unified diff for write/edit).
import type { EffectProfile } from '../../shared/types.js';
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

export function buildEffect(run: Run, row: Row, tool: ExecutorTool | undefined, resolvedTool: string, matched: readonly number[]): EffectProfile {
  const effect: EffectProfile = {
    agent: run.agent,
    tool: resolvedTool,
    target: targetOf(tool, row.input, run.workspace),
    input: row.input,
    matched_rules: matched.map((i) => run.rules[i]).filter((r) => r !== undefined),
    workspace: run.workspace,
    mode: run.mode,
  };
  if (row.runner) effect.runner = row.runner;
  if (isClientRun(run)) {
    // created_by is `client:<name>:<session id>`; the folder is the session's working folder.
    const [name = '', ...session] = run.created_by!.slice(CLIENT_RUN_PREFIX.length).split(':');
    effect.client = { name, session_id: session.join(':'), folder: run.workspace, tool_name: row.wire_tool };
  }
  const diff = tool?.preview?.(row.input, run.workspace);
  if (diff !== undefined) effect.diff = diff;
  return effect;
}
