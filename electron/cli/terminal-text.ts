// What the CLI prints is made of text agents, models and door callers chose (commands, targets, answers,
// error messages). A terminal obeys control characters: ESC sequences move the cursor and erase what was
// printed, C1 codes do the same on some terminals, and bidi overrides reorder what a person reads. So a card
// whose command is `curl … | sh` could be made to LOOK like `ls -la`. Every byte the CLI writes passes
// through here once (see terminalSafeIo): unsafe characters become visible escapes, never raw.
import type { CliIo } from './io.js';

// C0 except tab and newline, DEL, C1, the Arabic letter mark, LRM/RLM, the line/paragraph separators,
// the bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const LINE_BREAK = /\r\n|\r|\n/g;

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/**
 * For people: C0 as `\x1b` (and `\r`), everything else as `\u009b`, `\u202e`. Newlines and tabs stay
 * (multi-line output stays readable). DEL, C1 and bidi use the \u form because some human output is JSON
 * (`agents show`): JSON.stringify already escapes C0, and a `\u` escape keeps such a document valid and exact.
 */
export function humanText(s: string): string {
  return s.replace(/\r\n/g, '\n').replace(UNSAFE, (c) => (c === '\r' ? '\\r' : c.charCodeAt(0) < 0x20 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * For JSON on stdout: JSON.stringify already escapes C0 inside strings; the rest (DEL, C1, bidi) become
 * `\u00XX` escapes too. Inside JSON strings that is the same value (JSON.parse gives back every character
 * exactly) and outside strings JSON has no such characters, so the document stays exact while the terminal
 * never sees the raw character.
 */
export function jsonText(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u${hex(c, 4)}`);
}

/** One field on one line: its own line breaks show as `\n` so it cannot fake further lines of output. */
export function inlineText(s: string): string {
  return humanText(s.replace(LINE_BREAK, '\\n'));
}

/** A multi-line field under a label: continuation lines are indented so none can pass for a line of its own. */
export function blockText(s: string): string {
  return s.replace(LINE_BREAK, '\n  ');
}

/** Wrap an io so nothing unsafe reaches the terminal: stderr is always for people; stdout is JSON with --json. */
export function terminalSafeIo(io: CliIo, json: boolean): CliIo {
  return {
    out: (t) => io.out(json ? jsonText(t) : humanText(t)),
    err: (t) => io.err(humanText(t)),
  };
}
