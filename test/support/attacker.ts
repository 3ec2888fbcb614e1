// The containment tests' attacker: a scripted model that makes the calls the test set for its first round and
// stops after any tool result, and the agent profiles (files for `nexus agents add`) that drive it through a
// real `nexus serve` (test/support/serve.ts). Not a test file itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, type ScriptedModel } from './scripted-model.js';

export type AttackCalls = Array<{ name: string; input: unknown }>;

export interface Attacker {
  model: ScriptedModel;
  /** Write `<dir>/<name>.json`: an `ask` agent on the attacker model that may run any bash without a person. */
  profile(dir: string, name: string, extra?: Record<string, unknown>): string;
  close(): Promise<void>;
}

/** `firstCalls`: read at each first round (tests set it per test). `model`: more fields of the profiles' model. */
export async function attacker(firstCalls: () => AttackCalls, opts: { model?: Record<string, unknown> } = {}): Promise<Attacker> {
  const model = await startScriptedModel({ script: (req) => (req.toolResults.length ? { text: 'done' } : { toolCalls: firstCalls() }) });
  return {
    model,
    profile(dir, name, extra = {}) {
      const file = join(dir, `${name}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          name,
          model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted', ...opts.model },
          mode: 'ask',
          // The rule, loosened to every command: the agent may run any bash without a person.
          approval_rules: [{ tool: 'bash', verdict: 'allow' }],
          ...extra,
        }),
      );
      return file;
    },
    close: () => model.close(),
  };
}
