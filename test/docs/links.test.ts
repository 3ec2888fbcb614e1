// The repository's Markdown stands alone: no link or path points outside the repository (the design notes
// beside a working copy are not in a clone), every local link reaches a file that exists, and every
// #anchor names a heading of its page. The README says which cards the CLI cannot answer yet, truthfully.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../renderer/src/help/markdown.js';
import { ROOT } from '../support/docs-markdown.js';
import { cliCommands } from '../support/docs-cli-source.js';

function markdownFiles(dir = ROOT, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', '.git', 'test-results', 'playwright-report', 'native'].includes(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) markdownFiles(p, out);
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}
const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```\s*$/gm, '');
const anchors = (file: string) => new Set([...withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
const inside = (p: string) => p === ROOT || p.startsWith(ROOT + sep);
const files = markdownFiles();

describe('Markdown links stay inside the repository and resolve', () => {
  it('finds the pages', () => {
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/cli.md']));
  });
  it('no page names a path outside the repository (../shared/DESIGN.md and the like)', () => {
    const outside: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      if (/\/work\/shared|\.\.\/shared\/DESIGN/.test(text)) outside.push(`${relative(ROOT, f)} names the design notes outside the repository`);
      for (const m of text.matchAll(/(?:^|[\s(`'"])((?:\.\.\/)+[\w.-][\w./-]*)/gm)) {
        if (!inside(resolve(dirname(f), m[1]))) outside.push(`${relative(ROOT, f)}: ${m[1]}`);
      }
    }
    expect(outside).toEqual([]);
  });
  it('every local link reaches a file, and every #anchor a heading', () => {
    const broken: string[] = [];
    for (const f of files) {
      for (const m of withoutCode(readFileSync(f, 'utf8')).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const href = m[1];
        if (/^[a-z]+:/i.test(href)) continue;
        const [path, hash] = href.split('#');
        const target = path ? resolve(dirname(f), path) : f;
        const where = `${relative(ROOT, f)} → ${href}`;
        if (!inside(target) || !existsSync(target)) broken.push(`${where}: no such file in the repository`);
        else if (hash && target.endsWith('.md') && !anchors(target).has(hash)) broken.push(`${where}: no heading with that anchor`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('README.md: what the CLI can do', () => {
  it('names as "being added" exactly the card commands the CLI has not got yet', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const names = Object.keys(await cliCommands());
    for (const c of ['answer', 'retry', 'abandon']) {
      const said = readme.includes(`\`nexus ${c}\``) && /are being\s+added/.test(readme);
      expect(said, `README.md on nexus ${c}`).toBe(!names.includes(c));
    }
    expect(readme).toMatch(/autonomy, orchestration, attention, question/);
  });
});
