// The model of docs/delegation.md, in place of Ollama: one scripted Chat Completions server answering for
// both agents, told apart by their instructions. lead hands builder a task with delegate_task, builder writes
// notes.md, and each reports what happened.
//   npx tsx test/support/delegation-model.ts [PORT]    # prints its base URL, serves until Ctrl-C
import { pathToFileURL } from 'node:url';
import { startScriptedModel, type ScriptedModel } from './scripted-model.js';

export const DELEGATED_TASK = {
  agent: 'builder',
  task: 'Write notes.md: three name ideas for a command-line notes app, one a line.',
  acceptance_check: { command: 'test -s notes.md', timeout_s: 30 },
};

export function startDelegationModel(port = 0): Promise<ScriptedModel> {
  return startScriptedModel({
    port,
    script: (req) => {
      const last = req.toolResults.at(-1);
      if (req.system.includes('You plan the work')) {
        if (!last) return { toolCalls: [{ name: 'delegate_task', input: DELEGATED_TASK }] };
        return { text: 'builder wrote notes.md and its check passed.' };
      }
      if (!last) return { toolCalls: [{ name: 'write', input: { path: 'notes.md', content: 'jot\nquill\nmargin\n' } }] };
      return { text: 'Wrote notes.md with three names.' };
    },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const model = await startDelegationModel(Number(process.argv[2] ?? 0));
  process.stdout.write(`${model.baseURL}\n`);
  const stop = () => void model.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
