// The one way CLI commands read a JSON file (agents add, run --rules, rules check/eval, ...): `-` is standard
// input, a leading UTF-8 byte-order mark is dropped (editors on Windows write one; JSON.parse rejects it), and
// every failure is a sentence naming the file and, for bad JSON, the line and column.
import { readFile } from 'node:fs/promises';

export type JsonRead = { ok: true; value: unknown } | { ok: false; message: string };

async function readText(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

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
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    return { ok: false, message: `cannot read ${name}: ${why}` };
  }
  return parseJsonText(text, name);
}
