// The `nexus` command's entry: routes the first word to a command module.
// Each command module owns its flags; kernel-backed commands reach a running kernel through the socket door.
import { exitQuietlyOnClosedPipe, jsonErrors, processIo, type CliCommand, type CliIo } from './io.js';
import { commandFooter, globalHelp } from './help.js';
import { NEXUS_VERSION } from '../../shared/version.js';
import { terminalSafeIo } from './terminal-text.js';

const commands: Record<string, () => Promise<CliCommand>> = {
  rules: async () => (await import('./rules.js')).rulesCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  // desk init talks to Postgres (the serve module); desk status / leave ask the kernel.
  desk: async () => (await import('./desk-commands.js')).deskCommandWith((await import('./serve.js')).deskCommand),
  open: async () => (await import('./open.js')).openCommand,
  status: async () => (await import('./kernel-commands.js')).statusCommand,
  agents: async () => (await import('./agents-commands.js')).agentsCommand,
  run: async () => (await import('./kernel-commands.js')).runCommand,
  append: async () => (await import('./kernel-commands.js')).appendCommand,
  runs: async () => (await import('./runs-commands.js')).runsCommand,
  inbox: async () => (await import('./inbox-commands.js')).inboxCommand,
  approve: async () => (await import('./inbox-commands.js')).approveCommand,
  deny: async () => (await import('./inbox-commands.js')).denyCommand,
  answer: async () => (await import('./inbox-commands.js')).answerCommand,
  retry: async () => (await import('./inbox-commands.js')).retryCommand,
  abandon: async () => (await import('./inbox-commands.js')).abandonCommand,
  trust: async () => (await import('./kernel-commands.js')).trustCommand,
  settings: async () => (await import('./orchestration.js')).settingsCommand,
  'stop-all': async () => (await import('./orchestration.js')).stopAllCommand,
  resume: async () => (await import('./orchestration.js')).resumeCommand,
  entitlements: async () => (await import('./entitlements-commands.js')).entitlementsCommand,
  chains: async () => (await import('./orchestration.js')).chainsCommand,
  tasks: async () => (await import('./orchestration.js')).tasksCommand,
  connect: async () => (await import('./connect.js')).connectCommand,
  disconnect: async () => (await import('./connect.js')).disconnectCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
};

const USAGE = `usage: nexus [--data-dir DIR] [--json] <command> [args]
commands: ${Object.keys(commands).join(', ')}
nexus --help describes each; nexus COMMAND --help gives its flags, limits and reference page.
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

/** --json among the options (before a `--`): stdout carries JSON, escaped as JSON rather than for people. */
const wantsJson = (argv: string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
};

export async function main(argv: string[], rawIo: CliIo = processIo): Promise<number> {
  if (rawIo === processIo) exitQuietlyOnClosedPipe();
  // Every command prints through this one wrapper, so none can put a raw control character on the terminal.
  const json = wantsJson(argv);
  const io = terminalSafeIo(rawIo, json);
  if (!json) return run(argv, io);
  const errors = jsonErrors(io);
  const exit = await run(argv, errors.io);
  errors.finish(exit);
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
    io.out(globalHelp(Object.keys(commands)));
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`nexus ${NEXUS_VERSION}`);
    return 0;
  }
  const load = commands[name];
  if (!load) {
    io.err(`nexus: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return 2;
  }
  const command = await load();
  if (!rest.includes('--help') && !rest.includes('-h')) return command(rest, io);
  // A command's help is its usage; the limits and the reference page follow it.
  let shownUsage = false;
  const code = await command(rest, { out: (t) => ((shownUsage ||= t.startsWith('usage:')), io.out(t)), err: (t) => io.err(t) });
  if (code === 0 && shownUsage) io.out(commandFooter(name));
  return code;
}
