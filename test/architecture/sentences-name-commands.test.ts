// A sentence a person reads names the command or the button they use, never an API method ("Replace it
// (agentsReplace)" told nobody what to type or press; issue 25). Every string literal, template text and JSX
// text of shared/, electron/ and renderer/src (tests aside) is read with TypeScript's own parser, so comments
// and identifiers do not count; a literal that holds a sentence (a space) may not name a method of more than
// one word (`agentsReplace`; one-word names such as `status` are ordinary words). Left out: the method table's
// own descriptions in shared/api/ (the API reference, for programmers) and SQL.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../shared/api/method-names.js';
import { ROOT } from '../support/docs-markdown.js';

const CAMEL = METHOD_NAMES.filter((n) => /[A-Z]/.test(n));
// A method name as a word of its own: not a setting's key (`orchestration.stopAll`) or part of a longer name.
const NAMED = new RegExp(`(?<![.\\w])(${CAMEL.join('|')})(?![\\w])`);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** Each string a file holds, with its line. */
function texts(path: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    )
      out.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const isReference = (path: string) => path.startsWith('shared/api/');
const isSql = (text: string) => /^\s*(SELECT|UPDATE|INSERT|DELETE|CREATE|WITH)\b/.test(text);

function offenders(paths: string[]): string[] {
  const found: string[] = [];
  for (const p of paths) {
    const rel = relative(ROOT, p);
    if (isReference(rel)) continue;
    for (const { line, text } of texts(p))
      if (/\s/.test(text.trim()) && !isSql(text) && NAMED.test(text)) found.push(`${rel}:${line}: ${text.trim().slice(0, 120)}`);
  }
  return found;
}

describe('sentences name commands and buttons, not API methods', () => {
  it('no user-facing string in shared/, electron/ or renderer/src names a method', () => {
    const paths = ['shared', 'electron', 'renderer/src'].flatMap((d) => files(join(ROOT, d)));
    expect(paths.length).toBeGreaterThan(200);
    expect(offenders(paths)).toEqual([]);
  });

  it('catches a method named in a sentence, and only there', () => {
    expect(NAMED.test('Replace it (agentsReplace), or choose another name.')).toBe(true);
    expect(NAMED.test('set orchestration.stopAll with nexus stop-all')).toBe(false);
    expect(NAMED.test('run `nexus agents replace FILE`')).toBe(false);
  });
});
