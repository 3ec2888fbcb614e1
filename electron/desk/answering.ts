// A person answering a desk card from this machine: the answer is inserted at the desk as the person (row-level
// security judges them), and the card's owner, woken by NOTIFY, applies the first answer it commits.
import type { DeskSql } from './pg/conn.js';
import * as q from './pg/queries.js';

export interface Answering {
  person: string | null;
  machine: string;
}
type Answer = { card_id: string; verdict: 'approve' | 'deny'; reason: string | null };

export async function answerCard(sql: DeskSql, me: Answering, a: Answer): Promise<{ answer_id: number; machine: string }> {
  const person = me.person;
  if (!person) throw new Error('no desk person is set for this machine (NEXUS_DESK_PERSON): answers at the desk name a person');
  const machine = await q.cardOwner(sql, { id: a.card_id });
  if (!machine) throw new Error(`no desk card ${JSON.stringify(a.card_id)}`);
  const answer_id = await q.insertAnswer(sql, { person, machine, card_id: a.card_id, verdict: a.verdict, reason: a.reason, at_machine: me.machine });
  return { answer_id, machine };
}

/**
 * Answer, then wait (at most `waitMs`) for the owner to report the outcome: the desk card's status then
 * ('pending' when the owner is away: it applies the first answer when it is back).
 */
export async function answerAndWait(
  sql: DeskSql,
  me: Answering,
  a: Answer,
  waitMs: number,
): Promise<{ machine: string; status: string; decided_by: string | null }> {
  const { machine } = await answerCard(sql, me, a);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const c = await q.cardStatus(sql, { machine, id: a.card_id });
    if ((c && c.status !== 'pending') || Date.now() >= deadline) return { machine, status: c?.status ?? 'pending', decided_by: c?.decided_by ?? null };
    await new Promise((r) => setTimeout(r, 50));
  }
}
