// The multi-agent scenario harness: a real NEXUS (turns + governance, real SQLite in a fresh temp dir, the
// real kernel) and one scripted model per agent on real HTTP (test/support/scripted-model.ts), so each
// agent's requests — what its model reads — are recorded separately. Not a test file itself.
import { saveAgent } from '../../electron/agents/profiles.js';
import type { TurnEngine } from '../../electron/agents/engine.js';
import { startScriptedModel, type Script, type ScriptedModel, type ScriptedReply, type ScriptedRequest } from './scripted-model.js';
import { openGate, testNexus, type TestNexus } from './nexus.js';
import type { Row, Run } from '../../electron/kernel/types.js';
import { listRunEvents } from '../../electron/store/queries/events.js';
import type { Mode } from '../../shared/types.js';
import type { Clock } from '../../electron/kernel/clock.js';

export interface Scenario extends TestNexus {
  turns: TurnEngine;
  models: Record<string, ScriptedModel>;
  /** A person starts a turn for an agent (the agent then acts on its own). */
  start(agent: string, prompt?: string): Run;
  ended(run_id: string, timeoutMs?: number): Promise<Run>;
  until<T>(what: string, f: () => T | null | undefined | false, timeoutMs?: number): Promise<T>;
  runsOf(agent: string): Run[];
  rowsOf(agent: string): Row[];
  open(allow: string[], perHopApproval?: boolean): Promise<void>;
  /** Everything agent `name`'s model was sent, last request first is `requests.at(-1)`. */
  requests(name: string): ScriptedRequest[];
  /** How many times the agent's runs went idle waiting on a hold (turn_waiting: the task stays open). */
  waits(agent: string): number;
  cleanup(): Promise<void>;
}

export async function scenario(
  cast: Record<string, Script | { script: Script; mode?: Mode; tools?: string[] }>,
  opts: { clock?: Clock } = {},
): Promise<Scenario> {
  const models: Record<string, ScriptedModel> = {};
  for (const [name, c] of Object.entries(cast)) {
    models[name] = await startScriptedModel({ script: 'script' in c && !Array.isArray(c) && typeof c !== 'function' ? c.script : (c as Script) });
  }
  const t = await testNexus({ modules: { turns: true, governance: true }, ...(opts.clock ? { clock: opts.clock } : {}) });
  for (const [name, c] of Object.entries(cast)) {
    const o = !Array.isArray(c) && typeof c !== 'function' ? c : { mode: undefined, tools: undefined };
    saveAgent(t.nexus.kernel, {
      name,
      mode: o.mode ?? 'bypass',
      ...(o.tools ? { tools: o.tools } : {}),
      model: { provider: 'chat-completions', baseURL: models[name].baseURL, model: `scripted-${name}` },
    });
  }
  const turns = t.nexus.turns;
  if (!turns) throw new Error('the scenario harness builds turns');
  const until = async <T>(what: string, f: () => T | null | undefined | false, timeoutMs = 15_000): Promise<T> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = f();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const runsOf = (agent: string) =>
    (t.gov.db.prepare('SELECT id FROM runs WHERE agent = ? ORDER BY created_at, rowid').all(agent) as { id: string }[]).map((r) =>
      t.nexus.kernel.getRun(r.id)!,
    );
  return {
    ...t,
    turns,
    models,
    start: (agent, prompt = 'Go.') => turns.startTurn({ agent, prompt }),
    ended: async (run_id, timeoutMs) => {
      await until('the run to end', () => t.nexus.kernel.getRun(run_id)?.status !== 'running', timeoutMs);
      return turns.settled(run_id);
    },
    until,
    runsOf,
    rowsOf: (agent) => runsOf(agent).flatMap((r) => t.nexus.kernel.listRows(r.id)),
    open: (allow, perHop = false) => openGate(t, allow, perHop),
    requests: (name) => models[name].requests,
    waits: (agent) => runsOf(agent).reduce((n, r) => n + listRunEvents(t.gov.db, r.id).filter((e) => e.type === 'turn_waiting').length, 0),
    async cleanup() {
      await t.close();
      for (const m of Object.values(models)) await m.close();
    },
  };
}

/** The structuredContent line the model read in a tool result (DESIGN §3: JSON on a line of its own). */
export function structuredOf(text: string): Record<string, unknown> | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.trim();
    if (l.startsWith('{')) {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        /* not the JSON line */
      }
    }
  }
  return null;
}

export const delegate = (agent: string, task = 'Do the thing.', command = 'true') => ({
  name: 'delegate_task',
  input: { agent, task, acceptance_check: { command } },
});
export const bash = (command: string) => ({ name: 'bash', input: { command } });

/** The text of the last tool result a model read in this request. */
export const last = (r: ScriptedRequest) => r.toolResults.at(-1)?.text ?? '';
/** A script that answers its requests with these replies in order, then plain text. */
export const queue = (replies: ScriptedReply[]) => (_req: ScriptedRequest, i: number) => replies[i] ?? { text: 'nothing more' };
