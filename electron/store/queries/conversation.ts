// The stored conversation of a run (migration 002) and its turn state. Plain query functions (db, args).
import { stmt, tx, type Db } from '../db.js';
import type { ConvMessage } from '../../../shared/conversation.js';

export type MessageKind = 'message' | 'prompt' | 'continuation' | 'feedback' | 'summary';

export interface StoredMessage {
  id: number;
  run_id: string;
  turn: number;
  round: number | null;
  kind: MessageKind;
  message: ConvMessage;
  compacted: boolean;
  created_at: string;
}

interface MessageRecord {
  id: number;
  run_id: string;
  turn: number;
  round: number | null;
  role: string;
  kind: MessageKind;
  content_json: string;
  compacted: number;
  created_at: number;
}

const toStored = (r: MessageRecord): StoredMessage => ({
  id: r.id,
  run_id: r.run_id,
  turn: r.turn,
  round: r.round,
  kind: r.kind,
  message: JSON.parse(r.content_json) as ConvMessage,
  compacted: r.compacted === 1,
  created_at: new Date(r.created_at).toISOString(),
});

export function appendMessage(
  db: Db,
  a: { run_id: string; turn: number; round: number | null; kind?: MessageKind; message: ConvMessage; now: number },
): number {
  const res = stmt(db, 'INSERT INTO messages (run_id, turn, round, role, kind, content_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    a.run_id,
    a.turn,
    a.round,
    a.message.role,
    a.kind ?? 'message',
    JSON.stringify(a.message),
    a.now,
  );
  return Number(res.lastInsertRowid);
}

/** Rewrite one stored message (the kernel notes each call's row id on the reply that made it). */
export function updateMessage(db: Db, id: number, message: ConvMessage): void {
  stmt(db, 'UPDATE messages SET content_json = ? WHERE id = ?').run(JSON.stringify(message), id);
}

/** What the model reads now: every message not compacted away, in order. */
export function liveMessages(db: Db, run_id: string): StoredMessage[] {
  return stmt<MessageRecord>(db, 'SELECT * FROM messages WHERE run_id = ? AND compacted = 0 ORDER BY id').all(run_id).map(toStored);
}

/** Everything ever said in the run, compacted messages included (for `runs show`). */
export function allMessages(db: Db, run_id: string): StoredMessage[] {
  return stmt<MessageRecord>(db, 'SELECT * FROM messages WHERE run_id = ? ORDER BY id').all(run_id).map(toStored);
}

/**
 * Replace the live messages with ids < keepFrom by one summary message placed before the kept ones.
 * The summary row takes a fresh id, so ordering is by a separate position: we re-insert the kept messages
 * after the summary (marking the originals compacted) to keep a single `ORDER BY id`.
 */
export function compactMessages(db: Db, a: { run_id: string; keepFrom: number; summary: ConvMessage; turn: number; now: number }): void {
  tx(db, () => {
    const live = liveMessages(db, a.run_id);
    stmt(db, 'UPDATE messages SET compacted = 1 WHERE run_id = ? AND compacted = 0').run(a.run_id);
    appendMessage(db, { run_id: a.run_id, turn: a.turn, round: null, kind: 'summary', message: a.summary, now: a.now });
    for (const m of live) {
      if (m.id >= a.keepFrom) appendMessage(db, { run_id: a.run_id, turn: m.turn, round: m.round, kind: m.kind, message: m.message, now: a.now });
    }
  });
}

export interface TurnState {
  run_id: string;
  agent: string;
  turn: number;
  round: number;
  stop_continuations: number;
  compactions: number;
  input_tokens: number;
  output_tokens: number;
}

export function getTurnState(db: Db, run_id: string): TurnState | null {
  return (
    stmt<TurnState>(db, 'SELECT run_id, agent, turn, round, stop_continuations, compactions, input_tokens, output_tokens FROM turn_state WHERE run_id = ?').get(
      run_id,
    ) ?? null
  );
}

export function initTurnState(db: Db, a: { run_id: string; agent: string; now: number }): TurnState {
  stmt(db, 'INSERT OR IGNORE INTO turn_state (run_id, agent, updated_at) VALUES (?, ?, ?)').run(a.run_id, a.agent, a.now);
  return getTurnState(db, a.run_id)!;
}

export function updateTurnState(db: Db, run_id: string, patch: Partial<Omit<TurnState, 'run_id' | 'agent'>>, now: number): void {
  const keys = Object.keys(patch) as (keyof typeof patch)[];
  if (!keys.length) return;
  // Keys come from the TurnState type above, never from input: safe to splice into the statement.
  stmt(db, `UPDATE turn_state SET ${keys.map((k) => `${k} = ?`).join(', ')}, updated_at = ? WHERE run_id = ?`).run(...keys.map((k) => patch[k]), now, run_id);
}

export function insertQuestion(db: Db, a: { id: string; run_id: string; row_id: string | null; question: string; now: number }): void {
  stmt(db, 'INSERT INTO questions (id, run_id, row_id, question, created_at) VALUES (?, ?, ?, ?, ?)').run(a.id, a.run_id, a.row_id, a.question, a.now);
}

export function answerQuestion(db: Db, a: { id: string; answer: string; now: number }): boolean {
  return (
    stmt(db, "UPDATE questions SET answer = ?, status = 'answered', answered_at = ? WHERE id = ? AND status = 'pending'").run(a.answer, a.now, a.id).changes ===
    1
  );
}

export function cancelQuestion(db: Db, id: string, now: number): boolean {
  return stmt(db, "UPDATE questions SET status = 'canceled', answered_at = ? WHERE id = ? AND status = 'pending'").run(now, id).changes === 1;
}

export function getQuestion(
  db: Db,
  id: string,
): { id: string; run_id: string; row_id: string | null; question: string; answer: string | null; status: string } | null {
  return (stmt(db, 'SELECT id, run_id, row_id, question, answer, status FROM questions WHERE id = ?').get(id) as never) ?? null;
}

/** What the model said in the round that made a call: the text of its reply in that round, at or before `at`. */
export function assistantTextOfRound(db: Db, run_id: string, round: number | null, at: number): string | null {
  // Without a round (a card not tied to a model row): the model's last reply before the card.
  const r = (
    round === null
      ? stmt(db, "SELECT content_json FROM messages WHERE run_id = ? AND role = 'assistant' AND created_at <= ? ORDER BY id DESC LIMIT 1").get(run_id, at)
      : stmt(db, "SELECT content_json FROM messages WHERE run_id = ? AND round = ? AND role = 'assistant' AND created_at <= ? ORDER BY id DESC LIMIT 1").get(
          run_id,
          round,
          at,
        )
  ) as { content_json: string } | undefined;
  if (!r) return null;
  const m = JSON.parse(r.content_json) as { text?: unknown };
  return typeof m.text === 'string' && m.text.trim() ? m.text : null;
}

/** Ids of the runs that have a conversation and are still `running` (they resume after a restart). */
export function runningTurnRuns(db: Db): string[] {
  return stmt<{ id: string }>(db, "SELECT r.id FROM runs r JOIN turn_state t ON t.run_id = r.id WHERE r.status = 'running'")
    .all()
    .map((r) => r.id);
}
