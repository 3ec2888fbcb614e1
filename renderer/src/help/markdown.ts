// The small Markdown subset docs/ is written in, parsed into blocks the Help dialog renders as React elements
// (never as HTML): headings, paragraphs, lists, fenced code, tables, and inline code, emphasis and links.
// Pure.

export type Inline = { kind: 'text' | 'code' | 'strong' | 'em'; text: string } | { kind: 'link'; text: string; href: string };
export type Block =
  | { kind: 'heading'; level: number; text: Inline[]; id: string }
  | { kind: 'paragraph'; text: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'table'; head: Inline[][]; rows: Inline[][][] };

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export const anchorOf = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

export function inline(text: string): Inline[] {
  const out: Inline[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m; (m = re.exec(text));) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'strong', text: m[2] });
    else if (m[3] !== undefined) out.push({ kind: 'em', text: m[3] });
    else out.push({ kind: 'link', text: m[4].replace(/`/g, ''), href: m[5] });
    last = re.lastIndex;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => inline(c.trim().replace(/\\\|/g, '|')));

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const isSpecial = (l: string) => /^(#{1,6} |```|\s*\||\s*[-*] |\s*\d+\. )/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const h = /^(#{1,6}) (.*)$/.exec(line);
    if (h) {
      blocks.push({ kind: 'heading', level: h[1].length, text: inline(h[2]), id: anchorOf(h[2]) });
      i++;
    } else if (line.startsWith('```')) {
      const lang = line.slice(3).trim();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      i++;
      blocks.push({ kind: 'code', lang, text: body.join('\n') });
    } else if (/^\s*\|/.test(line)) {
      const rows: string[] = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(lines[i]);
      const body = rows.filter((r, n) => n !== 1 || !/^\s*\|[\s|:-]+\|\s*$/.test(r));
      blocks.push({ kind: 'table', head: cells(body[0]), rows: body.slice(1).map(cells) });
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line);
      const items: string[] = [];
      for (; i < lines.length && lines[i].trim(); i++) {
        if (/^\s*([-*]|\d+\.) /.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.) /, ''));
        else if (/^\s*\|/.test(lines[i]) || lines[i].startsWith('```')) break;
        else items[items.length - 1] += ` ${lines[i].trim()}`;
      }
      blocks.push({ kind: 'list', ordered, items: items.map(inline) });
    } else {
      const para: string[] = [];
      for (; i < lines.length && lines[i].trim() && !isSpecial(lines[i]); i++) para.push(lines[i].trim());
      blocks.push({ kind: 'paragraph', text: inline(para.join(' ')) });
    }
  }
  return blocks;
}
