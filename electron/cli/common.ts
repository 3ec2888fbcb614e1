// What kernel-backed commands share: flag parsing (node:util parseArgs, strict), the kernel connection,
// and the exit-code conventions (0 ok, 1 failure with the message on stderr, 2 usage).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './io.js';
import { connectKernel, NoKernelError, NotAuthenticatedError, type KernelConnection } from './client.js';
import type { NexusApi, Result } from '../../shared/api/index.js';
import { resolveDataDir } from '../store/data-dir.js';
import { blockText, inlineText } from './terminal-text.js';
import { errorMessage } from '../../shared/errors.js';

export const COMMON_OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export type Values = Record<string, string | boolean | undefined>;
export interface Parsed {
  values: Values;
  positionals: string[];
}

/** Parse or explain: null means a usage error was printed (exit 2) or help was shown (exit 0, see `help`). */
export function parse(argv: string[], options: ParseArgsConfig['options'], io: CliIo, usage: string): Parsed | { exit: number } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
    if (values.help) {
      io.out(usage);
      return { exit: 0 };
    }
    return { values: values as Values, positionals };
  } catch (e) {
    io.err(`nexus: ${errorMessage(e)}\n${usage}`);
    return { exit: 2 };
  }
}

export const usageError = (io: CliIo, usage: string, message: string): number => {
  io.err(`nexus: ${message}\n${usage}`);
  io.error?.('usage', message);
  return 2;
};

/** Connect to the kernel of the chosen data dir and run `fn` with its typed API (and the connection, for
 *  events and the door's own requests); a missing kernel is a clear failure (exit 1). */
export async function withKernel(values: Values, io: CliIo, fn: (api: NexusApi, k: KernelConnection) => Promise<number>): Promise<number> {
  const dataDir = resolveDataDir(values['data-dir'] as string | undefined);
  let conn: KernelConnection;
  try {
    conn = await connectKernel(dataDir);
  } catch (e) {
    const message = e instanceof NoKernelError || e instanceof NotAuthenticatedError ? e.message : `cannot reach the kernel: ${errorMessage(e)}`;
    io.err(`nexus: ${message}`);
    io.error?.(e instanceof NoKernelError ? 'no_kernel' : e instanceof NotAuthenticatedError ? 'unauthenticated' : 'unreachable', message);
    return 1;
  }
  try {
    return await fn(conn.api, conn);
  } finally {
    conn.close();
  }
}

/** The value of a call's answer (`expectValue(io, api.status({}))`); on an error result print it (stderr)
 *  and return undefined. */
export async function expectValue<T>(io: CliIo, answer: Promise<Result<T>>): Promise<{ value: T } | undefined> {
  const r = await answer;
  if (r.ok) return { value: r.value };
  // Rule errors ride as details AND in the message (the window shows the message alone): print the
  // message's head, then each error once on its own line, as the validator worded it ("rule N: …").
  const details = (r.error as { details?: unknown }).details;
  const list = Array.isArray(details) ? details : Array.isArray((details as { errors?: unknown })?.errors) ? (details as { errors: unknown[] }).errors : null;
  let head = r.error.message;
  let extra = '';
  if (list?.length) {
    const texts = list.map((d) =>
      d && typeof d === 'object' && typeof (d as { message?: unknown }).message === 'string' ? (d as { message: string }).message : JSON.stringify(d),
    );
    const at = head.indexOf(texts[0]);
    if (at > 0) head = head.slice(0, at).replace(/[\s:;]+$/, '');
    extra = texts.map((t) => `\n  ${inlineText(t)}`).join('');
  }
  io.err(`nexus: ${blockText(head)} (${r.error.code})${extra}`);
  io.error?.(r.error.code, r.error.message);
  return undefined;
}

export const printJson = (io: CliIo, v: unknown) => io.out(JSON.stringify(v, null, 2));

/** Fixed-width columns for human output. Each cell is one line, escaped before the widths are measured. */
export function table(cells: string[][]): string {
  if (!cells.length) return '';
  const rows = cells.map((r) => r.map((c) => inlineText(c ?? '')));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

/** A short one-line preview: runs of spaces collapse, a line break shows as `\n` (a command's own line
 *  breaks matter: `ls\nrm -rf ~` is two commands, not `ls rm -rf ~`). */
export const oneLine = (s: string, max = 60) => {
  const t = s
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** How long until an ISO deadline, for people: "23h 59m left", "12m left", "under a minute left", "expired". */
export function timeLeft(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return `expires ${iso}`;
  const mins = Math.floor((at - now) / 60_000);
  if (at <= now) return 'expired';
  if (mins < 1) return 'under a minute left';
  const h = Math.floor(mins / 60);
  return h ? `${h}h ${mins % 60}m left` : `${mins}m left`;
}
