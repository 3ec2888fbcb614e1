// `nexus connect claude-code|codex` and `nexus disconnect …`: install (remove) NEXUS as the client's tool hook.
// The change is printed as a diff before it is written (`--dry-run` prints it and writes nothing). Runs without
// a kernel: it edits the person's client settings, which name this data dir.
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliCommand, CliIo } from './io.js';
import { parse, usageError } from './common.js';
import { resolveDataDir } from '../store/data-dir.js';
import { errorMessage } from '../../shared/errors.js';

const USAGE = `usage: nexus connect claude-code [--user | --project DIR] [--timeout SECONDS] [--when-down deny|ask] [--dry-run]
       nexus connect codex [--timeout SECONDS] [--when-down deny|ask] [--codex PATH] [--dry-run]
       nexus disconnect claude-code [--user | --project DIR] [--dry-run]
       nexus disconnect codex [--dry-run]
       nexus connect gemini|opencode [--user | --project DIR] [--timeout SECONDS] [--when-down deny|ask] [--dry-run]
       nexus disconnect gemini|opencode [--user | --project DIR] [--dry-run]
Installs NEXUS as the client's tool hook (Gemini CLI: BeforeTool; OpenCode: a plugin): every tool call the client makes crosses NEXUS's approval stage
(rules, cards in the inbox, Stop all) and is recorded. --timeout is how long the client waits for a person
(default 900 s; NEXUS answers "not approved in time" just before). --when-down: what the hook answers when
NEXUS is not running (default deny).`;

const OPTIONS = {
  user: { type: 'boolean', default: false },
  project: { type: 'string' },
  timeout: { type: 'string' },
  'when-down': { type: 'string' },
  codex: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
} as const;

function command(action: 'connect' | 'disconnect'): CliCommand {
  return async (argv: string[], io: CliIo) => {
    const p = parse(argv, OPTIONS, io, USAGE);
    if ('exit' in p) return p.exit;
    const { values, positionals } = p;
    const client = positionals[0];
    const known = (['claude-code', 'codex', 'gemini', 'opencode'] as const).find((c) => c === client);
    if (!known) return usageError(io, USAGE, `${action} needs a client: claude-code, codex, gemini or opencode`);
    if (positionals.length > 1) return usageError(io, USAGE, `unexpected argument ${JSON.stringify(positionals[1])}`);
    if (values.user && values.project) return usageError(io, USAGE, '--user and --project are exclusive');
    const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 10 && timeout <= 86_400))
      return usageError(io, USAGE, '--timeout is whole seconds from 10 to 86400');
    const whenDown = values['when-down'];
    if (whenDown !== undefined && whenDown !== 'deny' && whenDown !== 'ask') return usageError(io, USAGE, '--when-down is deny or ask');
    const raw = resolveDataDir(values['data-dir'] as string | undefined);
    const dataDir = existsSync(raw) ? realpathSync(raw) : resolve(raw);
    const target = {
      client: known,
      scope: values.project ? ('project' as const) : ('user' as const),
      project: values.project ? resolve(values.project as string) : undefined,
      dataDir,
      timeoutS: timeout,
      whenDown: whenDown as 'deny' | 'ask' | undefined,
      codexBin: values.codex as string | undefined,
    };
    const { plan, apply } = await import('../external/connect/plan.js');
    try {
      const preview = plan(target, action);
      if (values.json && values['dry-run']) {
        io.out(JSON.stringify(preview, null, 2));
        return 0;
      }
      if (!values.json) {
        io.out(
          preview.changed
            ? `${preview.file} will change:\n${preview.diff}`
            : `${preview.file}: nothing to change (${action === 'connect' ? 'already connected' : 'not connected'}).`,
        );
        for (const n of preview.notes) io.out(`note: ${n}`);
      }
      if (values['dry-run']) return 0;
      const done = await apply(target, action);
      if (values.json) io.out(JSON.stringify(done, null, 2));
      else {
        if (done.after !== preview.after) io.out(`${done.file} now holds:\n${done.diff}`);
        for (const n of done.notes.filter((n) => !preview.notes.includes(n))) io.out(`note: ${n}`);
        io.out(`${action === 'connect' ? 'Connected' : 'Disconnected'}: ${client} (${done.file}).`);
      }
      return 0;
    } catch (e) {
      io.err(`nexus: ${errorMessage(e)}`);
      return 1;
    }
  };
}

export const connectCommand = command('connect');
export const disconnectCommand = command('disconnect');
