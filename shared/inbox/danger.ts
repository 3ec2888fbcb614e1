// Which calls deserve a second look before one key answers them: a pure classifier over a card's tool, input
// and workspace. It only ever ADDS a confirmation step in the window; it never grants or refuses anything, so a
// miss costs one keypress of care, a false alarm costs one extra click. Pure: no I/O.
import { SHELL_TOOLS } from '../rules/lint.js';

export interface DangerFinding {
  /** Stable key for tests and styling. */
  kind: 'recursive_delete' | 'pipe_to_shell' | 'force_push' | 'write_outside' | 'disk_wipe' | 'world_writable';
  /** One sentence a person reads on the confirmation. */
  message: string;
}

const PATH_TOOLS = new Set(['write', 'edit']);
const PATH_KEYS = ['path', 'file_path'];

/** The command text of a shell call, or null. Aliased keys (`cmd`) count too. */
function commandOf(tool: string, input: unknown): string | null {
  if (!SHELL_TOOLS.includes(tool) && tool !== 'Bash' && tool !== 'exec_command') return null;
  if (!input || typeof input !== 'object' || Array.isArray(input)) return null;
  const o = input as Record<string, unknown>;
  const c = o.command ?? o.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((w) => typeof w === 'string')) return c.join(' ');
  return null;
}

/** Each simple command of a shell line (split on ; & | newlines and $( `): a danger may hide in any of them. */
const simpleCommands = (cmd: string): string[] =>
  cmd
    .split(/;|&&|\|\||\||&|\n|\$\(|`/)
    .map((s) => s.trim())
    .filter(Boolean);

const words = (s: string): string[] =>
  s
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
/** The program of a simple command, past `sudo`, `env X=Y`, `command`, and a path prefix. */
function program(ws: string[]): { name: string; args: string[] } {
  let i = 0;
  while (i < ws.length && (ws[i] === 'sudo' || ws[i] === 'env' || ws[i] === 'command' || ws[i] === 'exec' || /^[A-Za-z_][A-Za-z0-9_]*=/.test(ws[i]))) i++;
  const name = (ws[i] ?? '').split('/').pop() ?? '';
  return { name, args: ws.slice(i + 1) };
}

function shellFindings(cmd: string): DangerFinding[] {
  const out: DangerFinding[] = [];
  const add = (f: DangerFinding) => (out.some((x) => x.kind === f.kind) ? undefined : out.push(f));
  for (const part of simpleCommands(cmd)) {
    const { name, args } = program(words(part));
    if (name === 'rm') {
      const short = args.filter((a) => /^-[A-Za-z]+$/.test(a)).join('');
      if (/[rR]/.test(short) || args.includes('--recursive'))
        add({ kind: 'recursive_delete', message: 'It deletes recursively (rm -r): whole folders go at once, with no undo.' });
    }
    if (
      name === 'git' &&
      args[0] === 'push' &&
      args.some((a) => a === '-f' || a.startsWith('--force') || /^\+/.test(a) || (/^-[a-zA-Z]+$/.test(a) && a.includes('f')))
    )
      add({ kind: 'force_push', message: 'It force-pushes: commits on the remote branch can be overwritten for everyone.' });
    if (name === 'mkfs' || name.startsWith('mkfs.') || (name === 'dd' && args.some((a) => /^of=\/dev\//.test(a))))
      add({ kind: 'disk_wipe', message: 'It writes a raw disk or filesystem.' });
    if (name === 'chmod' && args.some((a) => /^(0?777|a\+w|o\+w)$/.test(a))) add({ kind: 'world_writable', message: 'It makes files writable by every user.' });
  }
  // A download piped into an interpreter runs code nobody has read.
  const pipeline = cmd.split('\n');
  for (const line of pipeline) {
    const stages = line.split(/\|(?!\|)/).map((s) => program(words(s.trim())).name);
    const fetchAt = stages.findIndex((s) => s === 'curl' || s === 'wget' || s === 'fetch');
    if (fetchAt >= 0 && stages.slice(fetchAt + 1).some((s) => /^(sh|bash|zsh|dash|ksh|fish|python3?|perl|ruby|node)$/.test(s)))
      add({ kind: 'pipe_to_shell', message: 'It downloads a script and runs it at once (… | sh): code nobody has read.' });
  }
  if (/(sh|bash)\s+-c\s+["']?\$\((curl|wget)/.test(cmd) || /(sh|bash)\s+<\(\s*(curl|wget)/.test(cmd))
    add({ kind: 'pipe_to_shell', message: 'It downloads a script and runs it at once (… | sh): code nobody has read.' });
  return out;
}

/** Lexical normalisation of a POSIX path: `.` and `..` folded, no file system read. */
function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
    } else out.push(seg);
  }
  return (abs ? '/' : '') + out.join('/');
}

/** Whether `p` (relative to `workspace` when not absolute) lies inside the workspace. */
export function insideWorkspace(p: string, workspace: string | undefined): boolean {
  if (p.startsWith('~')) return false;
  if (!p.startsWith('/')) {
    const n = normalize(p);
    return n !== '..' && !n.startsWith('../');
  }
  if (!workspace) return false;
  const ws = normalize(workspace);
  const n = normalize(p);
  return n === ws || n.startsWith(ws.endsWith('/') ? ws : `${ws}/`);
}

/** The findings for one call; empty when nothing calls for a second look. */
export function classifyDanger(tool: string, input: unknown, workspace?: string): DangerFinding[] {
  const cmd = commandOf(tool, input);
  if (cmd !== null) return shellFindings(cmd);
  if (PATH_TOOLS.has(tool.toLowerCase()) && input && typeof input === 'object' && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    const p = PATH_KEYS.map((k) => o[k]).find((v): v is string => typeof v === 'string');
    if (p !== undefined && !insideWorkspace(p, workspace))
      return [{ kind: 'write_outside', message: `It writes outside the agent's workspace${workspace ? ` (${workspace})` : ''}: ${p}` }];
  }
  return [];
}
