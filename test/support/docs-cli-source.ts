// The `nexus` command as its own source describes it, for the docs tests: the command list is whatever
// `nexus --help` lists (main.ts's table), and each command's help text is what `nexus NAME --help` prints.
import { main } from '../../electron/cli/main.js';

export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

/** Every command of the CLI, each with its `--help` text. */
export async function cliCommands(): Promise<Record<string, string>> {
  const help = (await run('--help')).out;
  const block = help.split('\ncommands:\n')[1].split('\n\n')[0];
  const names = block.split('\n').map((l) => l.trim().split(/\s+/)[0]);
  const out: Record<string, string> = {};
  for (const n of names) out[n] = (await run(n, '--help')).out;
  return out;
}

/** The long flags a help or doc text names (`--data-dir`, `--json` ...). */
export const flagsIn = (text: string): Set<string> => new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
