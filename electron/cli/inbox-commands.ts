// `nexus inbox` (paged) and the answers to its cards: approve, deny, answer, retry, abandon.
import { answerCommands, answersOf } from '../../shared/inbox/answers.js';
import type { CliCommand, CliIo } from './io.js';
import { expectValue, oneLine, parse, printJson, table, timeLeft, usageError, withKernel, type Values } from './common.js';
import { moreLine, pageArgs } from './paging.js';
import type { MethodOutput, NexusApi, Result } from '../../shared/api/index.js';

type Inbox = MethodOutput<'inboxList'>[number];

// ── inbox, approve, deny ─────────────────────────────────────────────────────────────────────────────────
const INBOX_USAGE = `usage: nexus inbox [--limit N] [--cursor ID] [--desk] [--data-dir DIR] [--json]
  --desk: on a machine joined to a team desk, every machine's pending cards (those you may read), with their
  machine; \`nexus approve|deny ID\` answers any of them.
  kinds: autonomy, orchestration (a per-hop hold; its id is the request_id), attention, question.
  Oldest first. Without --limit every pending card is listed (read a page at a time); --limit N (1–1000) lists
  one page, and --cursor ID starts it after that card.`;
/** Cards asked for per request when the inbox is listed whole. */
const INBOX_FOLLOW_PAGE = 500;
export const inboxCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { limit: { type: 'string' }, cursor: { type: 'string' }, desk: { type: 'boolean', default: false } }, io, INBOX_USAGE);
  if ('exit' in p) return p.exit;
  if (p.positionals.length && p.positionals[0] !== 'list') return usageError(io, INBOX_USAGE, `unexpected ${p.positionals.join(' ')}`);
  if (p.values.desk) return deskInbox(p.values, io);
  const page = pageArgs(p, io, INBOX_USAGE, 1000, INBOX_FOLLOW_PAGE);
  if (typeof page === 'number') return page;
  const whole = p.values.limit === undefined;
  return withKernel(p.values, io, async (api) => {
    const r = whole ? await followInbox(api, io, page.cursor) : await expectValue(io, api.inboxList(page));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else if (!r.value.length) io.out('(inbox empty)');
    else {
      // A failed hook's message and a question's text are what the person answers: shown under their row.
      const lines = table(
        r.value.map((i) => [
          i.id,
          i.kind,
          i.agent ?? '(person)',
          `${i.tool}${unsandboxedMark(i)}`,
          oneLine(i.target),
          i.hop !== undefined ? `hop ${i.hop}` : '',
          i.expires_at ? timeLeft(i.expires_at) : '',
        ]),
      ).split('\n');
      io.out(
        r.value
          .map((i, n) => {
            // The hint names only the answers this card accepts (shared/inbox/answers.ts, the window's buttons too).
            const asks = i.kind === 'question' || (i.kind === 'autonomy' && i.tool === 'ask');
            const text = i.kind === 'autonomy' ? (asks ? i.target : '') : (i.message ?? '');
            const said =
              text && (asks || i.kind === 'attention')
                ? `\n    ${asks ? 'asks' : 'says'}: ${oneLine(text, 300)}\n    ${answerCommands(i.answers ?? answersOf(i), i.id).join(' | ')}`
                : '';
            return `${lines[n]}${said}`;
          })
          .join('\n'),
      );
      if (!whole && r.value.length === page.limit) io.out(moreLine(`nexus inbox --limit ${page.limit}`, r.value[page.limit - 1]!.id));
    }
    return 0;
  });
};

/** `nexus inbox --desk`: the whole desk's pending cards, each with the machine that owns it. */
function deskInbox(values: Values, io: CliIo): Promise<number> {
  if (values.cursor !== undefined) return Promise.resolve(usageError(io, INBOX_USAGE, '--desk lists the first page of the desk; --cursor is for this machine'));
  const limit = values.limit === undefined ? 1000 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return Promise.resolve(usageError(io, INBOX_USAGE, '--limit takes 1–10000 with --desk'));
  return withKernel(values, io, async (api) => {
    const r = await expectValue(io, api.deskInbox({ limit }));
    if (!r) return 1;
    const cards = r.value.cards;
    if (values.json) printJson(io, cards);
    else if (!cards.length) io.out('(desk inbox empty)');
    else
      io.out(table(cards.map((c) => [c.id, c.machine, c.kind, c.agent ?? '(person)', c.tool, oneLine(c.target), c.expires_at ? timeLeft(c.expires_at) : ''])));
    return 0;
  });
}

/** Every pending card after `cursor`, a page at a time (no single answer grows with the inbox). */
async function followInbox(api: NexusApi, io: CliIo, cursor: string | undefined): Promise<{ value: Inbox[] } | undefined> {
  const all: Inbox[] = [];
  for (;;) {
    const r = await expectValue(io, api.inboxList({ limit: INBOX_FOLLOW_PAGE, ...(cursor ? { cursor } : {}) }));
    if (!r) return undefined;
    all.push(...r.value);
    if (r.value.length < INBOX_FOLLOW_PAGE) return { value: all };
    cursor = r.value[r.value.length - 1]!.id;
  }
}

/** A card whose agent runs without the OS sandbox says so in the list. */
const unsandboxedMark = (i: Inbox): string =>
  ((i.effect as { sandboxed?: unknown } | undefined)?.sandboxed === false ? ' (UNSANDBOXED)' : '') + (i.escape ? ` (ESCAPE: ${i.escape})` : '');

const APPROVE_USAGE = `usage: nexus approve ID [--trust-session | --trust-call] [--data-dir DIR] [--json]
  --trust-session: also grant that agent's later autonomy parks until NEXUS quits (never an orchestration hold).
  --trust-call: also grant only calls like this one (same tool, same command or path) until NEXUS quits.`;
export const approveCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { 'trust-session': { type: 'boolean', default: false }, 'trust-call': { type: 'boolean', default: false } }, io, APPROVE_USAGE);
  if ('exit' in p) return p.exit;
  const whole = !!p.values['trust-session'];
  const call = !!p.values['trust-call'];
  if (whole && call) return usageError(io, APPROVE_USAGE, '--trust-session and --trust-call exclude each other');
  const approve = (api: NexusApi, id: string) =>
    call ? api.inboxApprove({ id, trust_session: true, trust_scope: 'call' }) : api.inboxApprove({ id, trust_session: whole });
  return answer(p.values, p.positionals, io, APPROVE_USAGE, approve, 'approved');
};

const DENY_USAGE = `usage: nexus deny ID [--reason TEXT] [--data-dir DIR] [--json]
  --reason: at most 4096 characters; the agent reads it.`;
export const denyCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { reason: { type: 'string' } }, io, DENY_USAGE);
  if ('exit' in p) return p.exit;
  return answer(
    p.values,
    p.positionals,
    io,
    DENY_USAGE,
    (api, id) => api.inboxDeny({ id, ...(p.values.reason !== undefined ? { reason: p.values.reason as string } : {}) }),
    'denied',
  );
};

const ANSWER_USAGE = "usage: nexus answer ID TEXT [--data-dir DIR] [--json]   (an agent's question, from `nexus inbox`)";
export const answerCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, ANSWER_USAGE);
  if ('exit' in p) return p.exit;
  const [id, text, ...rest] = p.positionals;
  if (!id || text === undefined || rest.length) return usageError(io, ANSWER_USAGE, 'answer takes the question ID and the TEXT of the answer (quote it)');
  if (!text.trim()) return usageError(io, ANSWER_USAGE, 'the answer TEXT is empty');
  return answer(p.values, [id], io, ANSWER_USAGE, (api, q) => api.inboxAnswer({ id: q, text }), 'answered');
};

const RETRY_USAGE = 'usage: nexus retry ID [--data-dir DIR] [--json]   (a failed hook, from `nexus inbox`: run it again)';
export const retryCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, RETRY_USAGE);
  if ('exit' in p) return p.exit;
  return answer(p.values, p.positionals, io, RETRY_USAGE, (api, id) => api.inboxRetry({ id }), 'retried');
};

const ABANDON_USAGE = 'usage: nexus abandon ID [--data-dir DIR] [--json]   (a failed hook, from `nexus inbox`: go on without it)';
export const abandonCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, ABANDON_USAGE);
  if ('exit' in p) return p.exit;
  return answer(p.values, p.positionals, io, ABANDON_USAGE, (api, id) => api.inboxAbandon({ id }), 'abandoned');
};

/** One card answered: the id from `nexus inbox`, the call that answers it, and the verb that reports it. */
async function answer(
  values: Values,
  positionals: string[],
  io: CliIo,
  usage: string,
  act: (api: NexusApi, id: string) => Promise<Result<MethodOutput<'inboxApprove'>>>,
  verb: string,
): Promise<number> {
  const [id, ...rest] = positionals;
  if (!id || rest.length) return usageError(io, usage, 'exactly one ID (from `nexus inbox`) is required');
  return withKernel(values, io, async (api) => {
    const r = await expectValue(io, act(api, id));
    if (!r) return 1;
    const v = r.value;
    if (values.json) printJson(io, v);
    else if (!v.machine) io.out(`${verb} ${v.id} (now ${v.state})`);
    // Another desk machine's card: its owner applies the first answer it commits.
    else if (v.state === 'answer_sent') io.out(`${verb} ${v.id} at the desk: ${v.machine} has not applied it yet (it does when it hears the desk)`);
    else io.out(`${verb} ${v.id} at the desk (on ${v.machine}: now ${v.state})`);
    return 0;
  });
}
