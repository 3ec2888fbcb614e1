// The `nexus` command's entry: routes the first word to a command module.
// Each command module owns its flags; kernel-backed commands reach a running kernel through the socket door.
import { processIo, type CliCommand, type CliIo } from './io.js';

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
  settings: async () => (await import('./orchestration.js')).settingsCommand,
  'stop-all': async () => (await import('./orchestration.js')).stopAllCommand,
  resume: async () => (await import('./orchestration.js')).resumeCommand,
  entitlements: async () => (await import('./orchestration.js')).entitlementsCommand,
  chains: async () => (await import('./orchestration.js')).chainsCommand,
  tasks: async () => (await import('./orchestration.js')).tasksCommand,
};

const USAGE = `usage: nexus <command> [args] [--json]
commands: ${Object.keys(commands).join(', ')}`;

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
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
