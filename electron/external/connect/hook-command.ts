// The command line a client runs as NEXUS's hook, and how NEXUS recognises its own entries in a client's settings.
export interface HookSpec {
  /** Absolute path of the node binary that runs the hook. */
  node: string;
  /** Absolute path of dist/hook/nexus-hook.mjs. */
  script: string;
  dataDir: string;
  /** The client's hook timeout, seconds. NEXUS answers (deny, expired) before it. */
  timeoutS: number;
  /** When NEXUS is not running: deny (default), or ask (hand the call to the client's own prompt). */
  whenDown: 'deny' | 'ask';
}

/** A generous wait for a person: 15 minutes. The client's own default (600 s) would cut a person off sooner. */
export const DEFAULT_TIMEOUT_S = 900;
export const HOOK_MARK = 'nexus-hook.mjs';

/** POSIX shell quoting: both clients run a command hook through a shell. */
export const shQuote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function hookCommand(client: 'claude-code' | 'codex' | 'gemini' | 'opencode', spec: HookSpec): string {
  const electron = 'ELECTRON_RUN_AS_NODE=1 ';
  const prefix = spec.node.startsWith(electron) ? electron : '';
  const args = [spec.node.slice(prefix.length), spec.script, '--client', client, '--data-dir', spec.dataDir, '--timeout-s', String(spec.timeoutS)];
  if (spec.whenDown === 'ask') args.push('--when-down', 'ask');
  return prefix + args.map(shQuote).join(' ');
}

export const isNexusHook = (command: unknown): command is string => typeof command === 'string' && command.includes(HOOK_MARK);

/** The data dir a NEXUS hook command names (to tell "connected here" from "connected to another data dir"). */
export function dataDirOf(command: string): string | null {
  const m = /--data-dir (?:'((?:[^']|'\\'')*)'|(\S+))/.exec(command);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!;
}
