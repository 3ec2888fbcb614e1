// The answers each card takes: the one list the kernel enforces, the window draws as buttons, the CLI prints as
// hints and docs/cli.md's inbox table states (test/docs checks the table against it). A card names only the
// answers it accepts, so no button or hint leads to `not_supported`. Pure: no I/O.
import type { InboxAnswer, InboxKind } from '../types.js';

export type { InboxAnswer };
export const INBOX_ANSWERS = ['approve', 'deny', 'retry', 'abandon', 'answer'] as const satisfies readonly InboxAnswer[];

/** The kinds of card as people meet them: an attention card is a failed hook or a failed delegated task. */
export const CARD_CASES = [
  { kind: 'autonomy', case: "the agent's own mode or an `ask` rule", answers: ['approve', 'deny'] },
  // Under mode ask the question tool itself parks first: approving and answering is one step on this card.
  { kind: 'autonomy', case: "the agent's `ask` call parked by its mode (answering approves it too)", answers: ['approve', 'deny', 'answer'] },
  { kind: 'orchestration', case: "per-hop approval of a chain (`id` = the hold's `request_id`)", answers: ['approve', 'deny'] },
  { kind: 'attention', case: 'a failed hook', answers: ['retry', 'abandon'] },
  // The delegator already has the failure; delegating again is the agent's move, so there is no Retry.
  { kind: 'attention', case: 'a delegated task that failed (past its refusals, or its hold expired)', answers: ['abandon'] },
  { kind: 'question', case: "the agent's `ask` tool", answers: ['answer'] },
] as const satisfies ReadonlyArray<{ kind: InboxKind; case: string; answers: readonly InboxAnswer[] }>;

/** The answers this card accepts, from what every card carries: its kind and its tool. */
export function answersOf(item: { kind: InboxKind; tool: string }): readonly InboxAnswer[] {
  switch (item.kind) {
    case 'autonomy':
      return item.tool === 'ask' ? CARD_CASES[1].answers : CARD_CASES[0].answers;
    case 'orchestration':
      return CARD_CASES[2].answers;
    case 'attention':
      return item.tool === 'delegate_task' ? CARD_CASES[4].answers : CARD_CASES[3].answers;
    case 'question':
      return CARD_CASES[5].answers;
  }
}

const COMMAND: Readonly<Record<InboxAnswer, (id: string) => string>> = {
  approve: (id) => `nexus approve ${id}`,
  deny: (id) => `nexus deny ${id}`,
  retry: (id) => `nexus retry ${id}`,
  abandon: (id) => `nexus abandon ${id}`,
  answer: (id) => `nexus answer ${id} TEXT`,
};

/** The commands that answer a card, in the CLI's words (`ID` when no card id is at hand, as in docs). */
export const answerCommands = (answers: readonly InboxAnswer[], id = 'ID'): string[] => answers.map((a) => COMMAND[a](id));

/** One row of docs/cli.md's inbox table, as the page writes it (test/docs checks the page against this). */
export const docRow = (c: (typeof CARD_CASES)[number]): [string, string, string] => [
  `\`${c.kind}\``,
  c.case,
  answerCommands(c.answers)
    .map((x) => `\`${x}\``)
    .join(', '),
];
