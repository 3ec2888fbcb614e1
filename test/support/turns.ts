// Test harness for turns: a real NEXUS (store on a temp dir, kernel, turns engine) with a manual clock, a
// scripted model on real HTTP, and helpers to save agents and wait for runs. Not a test file itself.
import { createNexus, type Nexus, type NexusModules } from '../../electron/app.js';
import { dispatch } from '../../electron/api/dispatch.js';
import { ManualClock } from '../../electron/kernel/clock.js';
import { saveAgent } from '../../electron/agents/profiles.js';
import { world } from './world.js';
import { startScriptedModel, type Script, type ScriptedModel } from './scripted-model.js';
import type { AgentProfile } from '../../shared/types.js';
import type { MethodName, Methods, OutputOf } from '../../shared/api/index.js';
import type { Row, Run } from '../../electron/kernel/types.js';
import type { TurnEngine } from '../../electron/agents/engine.js';

export interface TurnsHarness {
  nexus: Nexus;
  turns: TurnEngine;
  model: ScriptedModel;
  clock: ManualClock;
  dir: string;
  /** Save an agent whose model is the scripted model (chat-completions unless said otherwise). */
  agent(p: Partial<AgentProfile> & { name: string; provider?: 'chat-completions' | 'anthropic'; stream?: boolean }): AgentProfile;
  /** Call the API as the window would (validated input, errors as values). */
  api<M extends MethodName>(method: M, input: unknown): Promise<{ ok: boolean; value: OutputOf<Methods[M]>; error?: { code: string; message: string } }>;
  /** Resolve once some row of the run satisfies `pred` (polling the store; events-free). */
  row(run_id: string, pred: (r: Row) => boolean, timeoutMs?: number): Promise<Row>;
  /** Resolve once the run has ended. */
  ended(run_id: string, timeoutMs?: number): Promise<Run>;
  /** Close NEXUS and open it again on the same data dir (a restart); `nexus` and `turns` are replaced. */
  restart(): Promise<void>;
  cleanup(): Promise<void>;
}

const builtTurns = (nexus: Nexus): TurnEngine => {
  if (!nexus.turns) throw new Error('this NEXUS was built without turns');
  return nexus.turns;
};

/** `modules`: which modules to build (default the turn engine alone). */
export async function turnsHarness(opts: { script?: Script; modules?: Partial<NexusModules>; env?: NodeJS.ProcessEnv } = {}): Promise<TurnsHarness> {
  const w = world({ clock: new ManualClock(Date.now()) });
  const dir = w.dir('turns');
  const clock = w.clock;
  const model = await startScriptedModel({ script: opts.script ?? [] });
  w.defer(() => model.close());
  const open = () => createNexus({ dataDir: dir, clock, modules: opts.modules ?? { turns: true }, env: { ...process.env, ...(opts.env ?? {}) } });
  const nexus = await open();
  const poll = async <T>(what: string, f: () => T | undefined | null, timeoutMs: number): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = f();
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const h: TurnsHarness = {
    nexus,
    turns: builtTurns(nexus),
    model,
    clock,
    dir,
    agent(p) {
      const { provider = 'chat-completions', stream, ...rest } = p;
      const profile: AgentProfile = {
        mode: 'bypass',
        ...rest,
        model: {
          provider,
          baseURL: provider === 'anthropic' ? model.anthropicBaseURL : model.baseURL,
          model: 'scripted-1',
          ...(stream === undefined ? {} : { stream }),
        } as AgentProfile['model'],
      };
      return saveAgent(h.nexus.kernel, profile).agent;
    },
    api: (method, input) => dispatch(h.nexus.handlers, method, input, { door: 'internal' }) as never,
    row: (run_id, pred, timeoutMs = 10_000) => poll('a row', () => h.nexus.kernel.listRows(run_id).find(pred), timeoutMs),
    ended: (run_id, timeoutMs = 15_000) =>
      poll(
        'the run to end',
        () => {
          const r = h.nexus.kernel.getRun(run_id);
          return r && r.status !== 'running' ? r : null;
        },
        timeoutMs,
      ).then(async (r) => {
        await h.turns.settled(run_id);
        return h.nexus.kernel.getRun(run_id) ?? r;
      }),
    async restart() {
      await h.nexus.close();
      h.nexus = await open();
      h.turns = builtTurns(h.nexus);
    },
    async cleanup() {
      await h.nexus.close();
      await w.cleanup();
    },
  };
  return h;
}
