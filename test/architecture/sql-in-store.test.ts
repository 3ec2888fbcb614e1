// Every SQL statement lives in electron/store/ (the statements in store/queries/ as (db, args) functions, the
// schema in store/migrations/): a layer above reaches the data through those functions and the kernel's ports,
// never by preparing a statement of its own. This reads each product file under electron/ and fails on SQL
// outside the store: a statement prepared or run (prepare, exec with SQL, pragma, the store's stmt), or SQL text.
// Tests are exempt: they may look into the store to check what a scenario left there. The team desk's
// PostgreSQL (electron/desk/pg/) is a second engine with its own schema and statements, kept there alike.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const isTest = (p: string) => /\.test\.tsx?$/.test(p);
/** Where statements belong: the SQLite store, and the desk's PostgreSQL statements beside its client. */
const STORES = ['electron/store/', 'electron/desk/pg/'];

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const SQL_TEXT =
  /['"`]\s*(?:SELECT\b[^'"`]*\bFROM|INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)|DROP\s+(?:TABLE|INDEX)|ALTER\s+TABLE|PRAGMA\s)/;
const PATTERNS: [string, RegExp][] = [
  ['prepares a statement', /\.prepare\s*\(/],
  ['sets or reads a pragma', /\.pragma\s*\(/],
  ["prepares through the store's stmt", /\bstmt\s*[<(]/],
  ['runs SQL with exec', /\.exec\s*\(\s*['"`]/],
  ['holds SQL text', SQL_TEXT],
];

/** Each line of `source` that does SQL, with what it does (comments are not code). */
export function sqlLines(source: string): { line: number; what: string; text: string }[] {
  const found: { line: number; what: string; text: string }[] = [];
  source.split('\n').forEach((text, i) => {
    const code = text.replace(/^\s*(\/\/|\*|\/\*).*$/, '').replace(/\s\/\/\s.*$/, '');
    for (const [what, re] of PATTERNS) if (re.test(code)) found.push({ line: i + 1, what, text: text.trim() });
  });
  return found;
}

describe('SQL lives in electron/store/ only', () => {
  it('finds SQL in a sample and passes over what only looks like it (the check can fail)', () => {
    const sample = [
      "const rows = db.prepare('SELECT id FROM runs').all();", // prepare
      "db.pragma('journal_mode = WAL');", // pragma
      "stmt(db, 'DELETE FROM rows WHERE id = ?').run(id);", // stmt + text
      "const q = `UPDATE runs SET status = 'x'`;", // text
      'const m = /position (\\d+)/.exec(message);', // a RegExp's exec: not SQL
      '// SELECT id FROM runs, in a comment', // a comment: not code
      "const s = 'select a tool from the list';", // lower-case prose
    ].join('\n');
    expect(sqlLines(sample).map((f) => f.line)).toEqual([1, 1, 2, 3, 3, 4]);
  });

  it('no product file outside the stores prepares, runs or holds SQL', () => {
    const files = walk(join(root, 'electron')).map((abs) => relative(root, abs).split(sep).join('/'));
    // The walk really read the tree: the store's own statements are found by the same test.
    const storeHits = files.filter((p) => p.startsWith('electron/store/queries/') && sqlLines(readFileSync(join(root, p), 'utf8')).length);
    expect(storeHits.length).toBeGreaterThan(5);
    const outside = files
      .filter((p) => !STORES.some((s) => p.startsWith(s)) && !isTest(p))
      .flatMap((p) => sqlLines(readFileSync(join(root, p), 'utf8')).map((f) => `${p}:${f.line} ${f.what}: ${f.text}`));
    expect(outside).toEqual([]);
  });
});
