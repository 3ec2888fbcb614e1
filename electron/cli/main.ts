// The `nexus` command's entry: routes the first word to a command module.
// Each command module owns its flags; kernel-backed commands reach a running kernel through the socket door.
import { exitQuietlyOnClosedPipe, jsonErrors, processIo, type CliCommand, type CliIo } from './io.js';

const commands: Record<string, () => Promise<CliCommand>> = {
  rules: async () => (await import('./rules.js')).rulesCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  status: async () => (await import('./kernel-commands.js')).statusCommand,
  agents: async () => (await import('./kernel-commands.js')).agentsCommand,
  run: async () => (await import('./kernel-commands.js')).runCommand,
  append: async () => (await import('./kernel-commands.js')).appendCommand,
  runs: async () => (await import('./kernel-commands.js')).runsCommand,
  inbox: async () => (await import('./kernel-commands.js')).inboxCommand,
  approve: async () => (await import('./kernel-commands.js')).approveCommand,
  deny: async () => (await import('./kernel-commands.js')).denyCommand,
  answer: async () => (await import('./kernel-commands.js')).answerCommand,
  retry: async () => (await import('./kernel-commands.js')).retryCommand,
  abandon: async () => (await import('./kernel-commands.js')).abandonCommand,
  trust: async () => (await import('./kernel-commands.js')).trustCommand,
  settings: async () => (await import('./orchestration.js')).settingsCommand,
  'stop-all': async () => (await import('./orchestration.js')).stopAllCommand,
  resume: async () => (await import('./orchestration.js')).resumeCommand,
  entitlements: async () => (await import('./orchestration.js')).entitlementsCommand,
  chains: async () => (await import('./orchestration.js')).chainsCommand,
  tasks: async () => (await import('./orchestration.js')).tasksCommand,
};

const USAGE = `usage: nexus [--data-dir DIR] [--json] <command> [args]
commands: ${Object.keys(commands).join(', ')}
  inbox                       what waits on a person: approvals, holds, failed hooks, questions
  approve ID | deny ID        answer an approval card or an orchestration hold
  answer ID TEXT              answer an agent's question
  retry ID | abandon ID       a failed hook: run it again, or go on without it
  tasks [show ID]             delegated tasks (who, state, refusals, last check's exit code)
  nexus COMMAND --help        one command's own usage
With --json, output is JSON; a failure is {"ok":false,"error":{"code","message"}} on stdout (exit 1; 2 for usage).`;

/**
 * Global options may come before the command (`nexus --data-dir D inbox`, `nexus --json status`): they are
 * moved after it, where every command parses them.
 */
export function hoistGlobalOptions(argv: string[]): { argv: string[] } | { error: string } {
  const globals: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') globals.push(a);
    else if (a.startsWith('--data-dir=')) globals.push(a);
    else if (a === '--data-dir') {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('-')) return { error: '--data-dir needs a folder' };
      globals.push(a, v);
      i++;
    } else break;
  }
  const [name, ...rest] = argv.slice(i);
  return { argv: name === undefined ? [] : [name, ...rest, ...globals] };
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  if (io === processIo) exitQuietlyOnClosedPipe();
  if (!argv.includes('--json')) return run(argv, io);
  const json = jsonErrors(io);
  const exit = await run(argv, json.io);
  json.finish(exit);
  return exit;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const hoisted = hoistGlobalOptions(argv);
  if ('error' in hoisted) {
    io.err(`nexus: ${hoisted.error}\n${USAGE}`);
    return 2;
  }
  const [name, ...rest] = hoisted.argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    io.err(`nexus: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return 2;
  }
  return (await load())(rest, io);
}
