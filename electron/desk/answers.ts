// Desk → kernel: answers people gave at the desk to THIS machine's cards. The owner is the single writer: it
// applies the first answer it commits while the card is still pending; any later one is recorded as too late,
// naming the answer that won. Each answer's outcome and the read cursor commit together, so a restart
// (or a reconnect) resumes exactly after the last answer handled.
import { z } from 'zod';
import { tx, type Db } from '../store/db.js';
import { insertOutbox, readDeskState, writeDeskState } from '../store/queries/desk-outbox.js';
import { inboxResolvedBy } from '../store/queries/inbox.js';
import type { Kernel } from '../kernel/kernel.js';
import type { DeskAnswer } from './pg/queries.js';

export const ANSWERS_SEEN = 'answers_seen';
export const answerer = (a: Pick<DeskAnswer, 'by_role' | 'at_machine'>) => `person:desk:${a.by_role}@${a.at_machine}`;

export type AnswerOutcome = { answer_id: number; row_id: string; outcome: 'applied' | 'too_late' | 'unknown_card'; by: string; winner: string | null };

export function answersSeen(db: Db): number {
  return readDeskState(db, { key: ANSWERS_SEEN, schema: z.number().int().nonnegative(), fallback: 0 });
}

export function applyAnswer(kernel: Pick<Kernel, 'getRow' | 'approve' | 'deny'>, db: Db, a: DeskAnswer): AnswerOutcome {
  const by = answerer(a);
  const row = kernel.getRow(a.card_id);
  let outcome: AnswerOutcome['outcome'] = row ? 'too_late' : 'unknown_card';
  if (row?.state === 'needs_approval') {
    try {
      if (a.verdict === 'approve') kernel.approve(a.card_id, { by });
      else kernel.deny(a.card_id, { by, reason: a.reason ?? undefined });
      outcome = 'applied';
    } catch (e) {
      // Someone (this machine's own window, the clock) decided it between the read and the answer.
      if (!(e instanceof Error && 'code' in e && e.code === 'conflict')) throw e;
    }
  }
  const card = inboxResolvedBy(db, a.card_id);
  const winner = outcome === 'applied' ? by : (card?.by ?? card?.status ?? row?.state ?? null);
  // A crash after the decision but before this cursor: the replayed answer finds its own name as the winner.
  if (outcome === 'too_late' && winner === by) outcome = 'applied';
  const result = { answer_id: a.id, row_id: a.card_id, outcome, by, winner };
  tx(db, () => {
    insertOutbox(db, { kind: 'answer', ref: a.card_id, data: result, now: Date.now() });
    writeDeskState(db, { key: ANSWERS_SEEN, value: a.id });
  });
  return result;
}
