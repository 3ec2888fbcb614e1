// The one way CLI commands read a JSON file (agents add, run --rules, rules check/eval, ...): `-` is standard
// input, a leading UTF-8 byte-order mark is dropped (editors on Windows write one; JSON.parse rejects it), and
// every failure is a sentence naming the file and, for bad JSON, the line and column.
// Input files are bounded: a file larger than its limit is refused BEFORE it is read (stat first), and a
// stream (standard input, a FIFO, a device) is cut off one byte past the limit — nothing unbounded is read
// into memory or sent to the kernel.
import type { CliIo } from './io.js';
import { createReadStream, stat as statCb, type Stats } from 'node:fs';
import { MAX_MESSAGE_BYTES } from '../../shared/api/doors.js';

export type JsonRead = { ok: true; value: unknown } | { ok: false; message: string };

/** Agent profiles, rules and other JSON inputs. */
export const MAX_JSON_FILE_BYTES = MAX_MESSAGE_BYTES;
/** Entitlement tokens (a signed JWT is a few hundred bytes; the kernel refuses more than 64 KiB). */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

// node:fs's callback stat, not node:fs/promises: loading that module costs every command a few ms at start.
const stat = (file: string) => new Promise<Stats>((resolve, reject) => statCb(file, (e, st) => (e ? reject(e) : resolve(st))));

const size = (n: number) => (n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${n / 1024} KiB`);

export class InputTooLarge extends Error {
  constructor(name: string, limit: number, actual?: number) {
    super(`${name} is too large${actual !== undefined ? ` (${actual} bytes)` : ''}: the limit is ${size(limit)}`);
  }
}

/** Read a text file (`-`: standard input) of at most `limit` bytes; larger is an InputTooLarge, unread. */
export async function readBoundedText(file: string, limit: number): Promise<string> {
  const name = file === '-' ? 'standard input' : file;
  if (file !== '-') {
    const st = await stat(file);
    if (st.isDirectory()) throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
    if (st.isFile() && st.size > limit) throw new InputTooLarge(name, limit, st.size);
  }
  const stream = file === '-' ? process.stdin : createReadStream(file);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const c of stream) {
      const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
      total += b.length;
      if (total > limit) throw new InputTooLarge(name, limit);
      chunks.push(b);
    }
  } finally {
    if (file !== '-') (stream as ReturnType<typeof createReadStream>).destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

const readText = (file: string): Promise<string> => readBoundedText(file, MAX_JSON_FILE_BYTES);

/** Where a JSON.parse error points, as "line L column C" (V8 reports a character position). */
function locate(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  const pos = m ? Number(m[1]) : text.length;
  const before = text.slice(0, pos).split('\n');
  return `line ${before.length} column ${before[before.length - 1].length + 1}`;
}

export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Parse JSON text (BOM tolerated); `name` is what the message calls the source. */
export function parseJsonText(text: string, name: string): JsonRead {
  const body = stripBom(text);
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const msg = (e as Error).message;
    return { ok: false, message: `${name} is not JSON (${locate(body, msg)}): ${msg}` };
  }
}

/** Read and parse a JSON file; never throws. */
export async function readJsonFile(file: string): Promise<JsonRead> {
  const name = file === '-' ? 'standard input' : file;
  let text: string;
  try {
    text = await readText(file);
  } catch (e) {
    if (e instanceof InputTooLarge) return { ok: false, message: e.message };
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    return { ok: false, message: `cannot read ${name}: ${why}` };
  }
  return parseJsonText(text, name);
}

/** A JSON file a command was given, or undefined after saying why it could not be read (`what` names it). */
export async function readJsonArg(io: CliIo, file: string, what: string): Promise<{ value: unknown } | undefined> {
  const r = await readJsonFile(file);
  if (r.ok) return { value: r.value };
  io.err(`nexus: ${what}: ${r.message}`);
  return undefined;
}
