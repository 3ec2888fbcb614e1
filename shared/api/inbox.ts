// The inbox's cards as the API shows them: one card, the filter that narrows them, their summary and an answer.
import { z } from 'zod';
import { INBOX_ANSWERS } from '../inbox/answers.js';
import { strict } from './contract.js';
import { Id } from './common.js';
import { EffectProfileView } from './approval.js';

export const InboxItem = strict({
  id: Id,
  kind: z.enum(['autonomy', 'orchestration', 'attention', 'question']),
  agent: z.string().nullable(),
  tool: z.string(),
  target: z.string(),
  run_id: Id,
  row_id: z.string().optional(),
  hop: z.number().int().optional(),
  chain_id: z.string().optional(),
  expires_at: z.string().optional(),
  created_at: z.string(),
  effect: EffectProfileView.optional(),
  message: z.string().optional(),
  trustable: z.boolean().optional(),
  /** The answers this card accepts: only these are offered, and only these are carried out. */
  answers: z.array(z.enum(INBOX_ANSWERS)).optional(),
  /** A connected client's call that asks to leave its own sandbox: why, in one sentence. Never trusted or made a rule. */
  escape: z.string().optional(),
  /** A connected client's call: what contains its commands (the client's own sandbox). */
  containment: z.string().optional(),
  /** The executor application a held row waits on, when one is named (null: its executor was revoked). */
  addressee: z.string().nullable().optional(),
});
/** One inbox card (DESIGN §5 `inbox --json`; more fields are welcome): the type is the schema's. */
export type InboxItem = z.infer<typeof InboxItem>;

/** How many pending cards a filter selects, grouped by agent, run and chain. */
export const InboxSummary = strict({
  total: z.number().int(),
  by_agent: z.array(strict({ key: z.string().nullable(), count: z.number().int() })),
  by_run: z.array(strict({ key: z.string(), agent: z.string().nullable(), count: z.number().int() })),
  by_chain: z.array(strict({ key: z.string(), count: z.number().int() })),
});
export type InboxSummary = z.infer<typeof InboxSummary>;

/** Narrows the pending cards (AND of the fields given). */
export const InboxFilter = strict({
  agent: z.string().max(200).nullable().optional(),
  kind: z.enum(['autonomy', 'orchestration', 'attention', 'question']).optional(),
  run_id: Id.optional(),
  chain_id: Id.optional(),
  /** Part of the tool name or target, any case. */
  text: z.string().max(500).optional(),
});

/** An answered card: its state now; for another desk machine's card, that machine (it applies the first answer). */
export const InboxAnswered = strict({ id: Id, state: z.string(), machine: z.string().optional() });
