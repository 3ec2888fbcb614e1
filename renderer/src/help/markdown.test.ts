// The Help dialog's Markdown reader on the real docs/ pages: every block kind, every page, no HTML; and the
// pages the window's Help links name exist.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf, inline, parseMarkdown } from './markdown.js';
import { SECTION_HELP, VIEW_HELP } from './help-pages.js';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs');

describe('the Help dialog reads docs/ Markdown', () => {
  it('headings (with GitHub anchors), paragraphs, lists, code, tables and inline spans', () => {
    const b = parseMarkdown('# Title\n\nSome `code`, **strong**, *em* and [a page](modes.md#the-table).\n\n- one\n  continued\n- two\n\n```sh\nnexus serve\n```\n\n| a | b \\| c |\n|---|---|\n| `x` | y |\n');
    expect(b.map((x) => x.kind)).toEqual(['heading', 'paragraph', 'list', 'code', 'table']);
    expect(b[0]).toMatchObject({ level: 1, id: 'title' });
    expect(b[1]).toMatchObject({ text: [{ kind: 'text', text: 'Some ' }, { kind: 'code', text: 'code' }, { kind: 'text', text: ', ' }, { kind: 'strong', text: 'strong' }, { kind: 'text', text: ', ' }, { kind: 'em', text: 'em' }, { kind: 'text', text: ' and ' }, { kind: 'link', text: 'a page', href: 'modes.md#the-table' }, { kind: 'text', text: '.' }] });
    expect(b[2]).toMatchObject({ ordered: false, items: [[{ text: 'one continued' }], [{ text: 'two' }]] });
    expect(b[3]).toEqual({ kind: 'code', lang: 'sh', text: 'nexus serve' });
    expect(b[4]).toMatchObject({ head: [[{ text: 'a' }], [{ text: 'b | c' }]], rows: [[[{ kind: 'code', text: 'x' }], [{ text: 'y' }]]] });
    expect(anchorOf('5. Block shell control text, then allow a prefix')).toBe('5-block-shell-control-text-then-allow-a-prefix');
    expect(inline('<script>x</script>')).toEqual([{ kind: 'text', text: '<script>x</script>' }]);
  });
  it('every page the window bundles parses, and every table row has its header\'s width', () => {
    for (const f of readdirSync(DOCS).filter((x) => x.endsWith('.md') && x !== 'spec-coverage.md')) {
      const blocks = parseMarkdown(readFileSync(join(DOCS, f), 'utf8'));
      expect(blocks[0], f).toMatchObject({ kind: 'heading', level: 1 });
      for (const t of blocks) if (t.kind === 'table') for (const r of t.rows) expect(r.length, `${f}: ${JSON.stringify(r).slice(0, 80)}`).toBe(t.head.length);
    }
  });
  it('the Help links name pages that exist', () => {
    const pages = new Set(readdirSync(DOCS));
    for (const p of [...Object.values(VIEW_HELP), ...Object.values(SECTION_HELP)]) {
      expect(pages.has(p.file), p.file).toBe(true);
      expect(readFileSync(join(DOCS, p.file), 'utf8').split('\n')[0]).toBe(`# ${p.title}`);
    }
  });
});
