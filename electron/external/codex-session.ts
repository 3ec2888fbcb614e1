// The policy a Codex session's turn really runs under, as Codex itself records it: each turn starts with a
// `turn_context` line in the session's rollout file (the hook's `transcript_path`), naming the sandbox policy,
// the file entries and the network. It reflects config.toml, a project's .codex/config.toml, a config profile,
// `-c`, `--sandbox` and `--dangerously-bypass-approvals-and-sandbox` alike, which no reading of config files
// could. Read incrementally: each call reads only what Codex appended since the last one.
import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { z } from 'zod';
import { TurnContext } from './connect/codex-wall.js';

const Line = z.object({ type: z.literal('turn_context'), payload: TurnContext });

interface Seen {
  offset: number;
  /** The newest turn_context read so far, per turn id ('' when it had none). */
  turns: Map<string, TurnContext>;
  last: TurnContext | null;
}
const seen = new Map<string, Seen>();
const MAX_FILES = 256;
const MAX_TURNS = 64;

function scan(file: string): Seen {
  let s = seen.get(file) ?? { offset: 0, turns: new Map(), last: null };
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = fstatSync(fd).size;
    if (size < s.offset) s = { offset: 0, turns: new Map(), last: null }; // rewritten: read it again
    const buf = Buffer.alloc(size - s.offset);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, s.offset + got);
      if (n <= 0) break;
      got += n;
    }
    const text = buf.subarray(0, got).toString('utf8');
    const end = text.lastIndexOf('\n'); // a line Codex is still writing is read next time
    for (const line of text.slice(0, end + 1).split('\n')) {
      if (!line.includes('"turn_context"')) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // not a line of Codex's
      }
      const m = Line.safeParse(json);
      if (!m.success) continue;
      s.turns.set(m.data.payload.turn_id ?? '', m.data.payload);
      s.last = m.data.payload;
      const first = s.turns.keys().next();
      if (s.turns.size > MAX_TURNS && !first.done) s.turns.delete(first.value); // a call asks about a recent turn
    }
    s.offset += Buffer.byteLength(text.slice(0, end + 1));
  } finally {
    closeSync(fd);
  }
  seen.delete(file);
  seen.set(file, s);
  const oldest = seen.keys().next();
  if (seen.size > MAX_FILES && !oldest.done) seen.delete(oldest.value);
  return s;
}

/** The turn's policy, or why NEXUS cannot see it (one phrase). */
export function codexTurnPolicy(ev: { session_id: string; transcript_path?: string | null; turn_id?: string }): TurnContext | string {
  const file = ev.transcript_path;
  const unseen = 'NEXUS cannot see which sandbox this session runs in (Codex keeps no record of it, e.g. with --ephemeral)';
  // Only a rollout file of this session: `rollout-<time>-<session id>.jsonl`.
  if (!file || !isAbsolute(file) || !basename(file).endsWith(`${ev.session_id}.jsonl`)) return unseen;
  let s: Seen;
  try {
    s = scan(file);
  } catch {
    return unseen;
  }
  const ctx = ev.turn_id ? s.turns.get(ev.turn_id) : s.last;
  return ctx ?? unseen;
}
