// Reading docs/*.md in tests: sections by heading, fenced blocks, table rows. Kept tiny: the pages are
// written in a small, regular subset of Markdown so a test can hold each one to the code.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const readDoc = (page: string): string => readFileSync(join(ROOT, 'docs', page), 'utf8');
export const docPages = (): string[] => readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));

export interface Section {
  level: number;
  title: string;
  body: string;
}

/** Split at headings of `level` (## = 2); fenced code is never taken for a heading. */
export function sections(text: string, level: number): Section[] {
  const out: Section[] = [];
  let fenced = false;
  let current: Section | null = null;
  const marker = `${'#'.repeat(level)} `;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && line.startsWith(marker)) {
      current = { level, title: line.slice(marker.length).trim(), body: '' };
      out.push(current);
    } else if (current) current.body += `${line}\n`;
  }
  return out;
}

/** The fenced blocks of a text, with their info string (`json`, `sh`, `console` ...). */
export function fences(text: string): Array<{ lang: string; body: string }> {
  const out: Array<{ lang: string; body: string }> = [];
  const re = /^```([^\n]*)\n([\s\S]*?)^```\s*$/gm;
  for (let m; (m = re.exec(text));) out.push({ lang: m[1].trim(), body: m[2] });
  return out;
}

/** The data rows of every Markdown table in a text, cells trimmed (`\|` is a literal bar). */
export function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!/^\|.*\|$/.test(line) || /^\|[\s|:-]+\|$/.test(line)) continue;
    const cells = line
      .trim()
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    rows.push(cells);
  }
  return rows;
}

/** A table's rows without its header row. */
export const bodyRows = (text: string): string[][] => {
  const out: string[][] = [];
  for (const block of text.split(/\n(?!\s*\|)/)) {
    const rows = tableRows(block);
    out.push(...rows.slice(1));
  }
  return out;
};

export const unquote = (cell: string): string => cell.replace(/^`(.*)`$/, '$1');
