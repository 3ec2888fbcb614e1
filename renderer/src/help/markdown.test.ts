// The Help dialog's Markdown reader: every block kind and inline span, never HTML. (On the real docs/ pages:
// test/docs/help-doc.test.ts.)
import { describe, expect, it } from 'vitest';
import { anchorOf, inline, parseMarkdown } from './markdown.js';

describe('the Help dialog reads docs/ Markdown', () => {
  it('headings (with GitHub anchors), paragraphs, lists, code, tables and inline spans', () => {
    const b = parseMarkdown(
      '# Title\n\nSome `code`, **strong**, *em* and [a page](modes.md#the-table).\n\n- one\n  continued\n- two\n\n```sh\nnexus serve\n```\n\n| a | b \\| c |\n|---|---|\n| `x` | y |\n',
    );
    expect(b.map((x) => x.kind)).toEqual(['heading', 'paragraph', 'list', 'code', 'table']);
    expect(b[0]).toMatchObject({ level: 1, id: 'title' });
    expect(b[1]).toMatchObject({
      text: [
        { kind: 'text', text: 'Some ' },
        { kind: 'code', text: 'code' },
        { kind: 'text', text: ', ' },
        { kind: 'strong', text: 'strong' },
        { kind: 'text', text: ', ' },
        { kind: 'em', text: 'em' },
        { kind: 'text', text: ' and ' },
        { kind: 'link', text: 'a page', href: 'modes.md#the-table' },
        { kind: 'text', text: '.' },
      ],
    });
    expect(b[2]).toMatchObject({ ordered: false, items: [[{ text: 'one continued' }], [{ text: 'two' }]] });
    expect(b[3]).toEqual({ kind: 'code', lang: 'sh', text: 'nexus serve' });
    expect(b[4]).toMatchObject({ head: [[{ text: 'a' }], [{ text: 'b | c' }]], rows: [[[{ kind: 'code', text: 'x' }], [{ text: 'y' }]]] });
    expect(anchorOf('5. Block shell control text, then allow a prefix')).toBe('5-block-shell-control-text-then-allow-a-prefix');
    expect(inline('<script>x</script>')).toEqual([{ kind: 'text', text: '<script>x</script>' }]);
  });
});
