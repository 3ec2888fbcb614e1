// `nexus runs` (DESIGN §5): list, show and stop runs. Human-readable output by default; the DESIGN JSON with
// --json (a row without an error carries no `error` key).
import { deskView } from './desk-views.js';
import type { CliCommand } from './io.js';
import { expectValue, oneLine, parse, printJson, table, usageError, withKernel } from './common.js';
import { blockText, inlineText } from './terminal-text.js';
import { moreLine, parseCursor, parseLimit, showRun } from './paging.js';
import type { MethodOutput } from '../../shared/api/index.js';
import { grantWords } from '../../shared/api/doors.js';

// The API's own types, by method (shared/api): a field the kernel renames or drops fails the type check here.
type Row = MethodOutput<'runsAppend'>;
type WaitingOn = NonNullable<MethodOutput<'runsList'>[number]['waiting_on']>;
/** What a run's delegation waits on, for people: the hold's request id and hop. */
const waitingText = (w: WaitingOn | undefined) =>
  w?.length ? w.map((h) => `waiting on orchestration hold ${h.request_id} (hop ${h.hop}, ${h.agent} wants ${h.tool})`).join('; ') : '';
type ClientOfRun = NonNullable<MethodOutput<'runsList'>[number]['client']>;
/** A connected client's session: which client, in which folder, and its newest call. */
const clientText = (c: ClientOfRun | undefined) =>
  c ? `${c.name} session in ${c.folder ?? '?'}; ${c.last_call ? `last call ${c.last_call.tool} at ${c.last_call.at}` : 'no call yet'}` : '';

/** One row of `runs show`. A hop orchestration held is not a failure to fix: it was not performed, a person
 *  is asked (request id = the inbox card), and the agent retries it once approved. The JSON keeps failed/hop_held. */
export function rowLine(r: Pick<Row, 'id' | 'origin' | 'tool' | 'state' | 'approved_by' | 'granted_by' | 'error' | 'result'>): string[] {
  if (r.state === 'failed' && r.error?.code === 'hop_held') {
    const request = r.result?.structuredContent?.request_id;
    return [r.id, r.origin, r.tool, 'held', `orchestration: awaiting a person's approval${typeof request === 'string' ? `, request ${request}` : ''}`];
  }
  const approved = r.approved_by ? grantWords(r) : '';
  return [r.id, r.origin, r.tool, r.state, r.error ? `${r.error.code}: ${oneLine(r.error.detail, 80)}${approved ? `; ${approved}` : ''}` : approved];
}

// ── runs ─────────────────────────────────────────────────────────────────────────────────────────────────
const RUNS_USAGE = `usage: nexus runs list [--limit N] [--cursor ID] [--desk] | show ID [--limit N] [--cursor ROW] | stop ID  [--data-dir DIR] [--json]
  --limit N: 1–1000 runs a list page (default 100), most recent first; show: 1–500 rows a page.
  --cursor: the last id of the previous page (list: a run; show: a row, with --limit; JSON: rows_next_cursor).
  show without --limit: every row. stop: force-stop (rows and hook work canceled).
  list --desk: every machine's runs at the team desk this machine joined (newest first, with their machine).`;
export const runsCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { limit: { type: 'string' }, cursor: { type: 'string' }, desk: { type: 'boolean', default: false } }, io, RUNS_USAGE);
  if ('exit' in p) return p.exit;
  const [sub = 'list', id, ...extra] = p.positionals;
  if (p.values.desk) return sub === 'list' && !id ? deskView('runs', p.values, io, RUNS_USAGE) : usageError(io, RUNS_USAGE, '--desk is for runs list');
  if (!['list', 'show', 'stop'].includes(sub)) return usageError(io, RUNS_USAGE, `unknown subcommand ${sub}`);
  if ((sub === 'list' && id) || (sub !== 'list' && !id) || extra.length)
    return usageError(io, RUNS_USAGE, `runs ${sub} ${sub === 'list' ? 'takes no argument' : 'needs one ID'}`);
  const limit = parseLimit(p.values.limit, sub === 'show' ? 500 : 1000, 100);
  if (typeof limit === 'string') return usageError(io, RUNS_USAGE, limit);
  const cursor = parseCursor(p.values.cursor);
  if (typeof cursor === 'object') return usageError(io, RUNS_USAGE, cursor.error);
  if (sub === 'show' && cursor !== undefined && p.values.limit === undefined)
    return usageError(io, RUNS_USAGE, 'runs show --cursor needs --limit (the size of the page)');
  if (sub === 'stop' && (p.values.limit !== undefined || cursor !== undefined)) return usageError(io, RUNS_USAGE, 'runs stop takes no --limit or --cursor');
  return withKernel(p.values, io, async (api) => {
    if (sub === 'list') {
      const r = await expectValue(io, api.runsList({ limit, ...(cursor ? { cursor } : {}) }));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else {
        io.out(
          r.value.length
            ? table(
                r.value.map((x) => [
                  x.id,
                  x.agent ?? '(person)',
                  x.waiting_on?.length && x.status === 'running' ? 'waiting' : x.status,
                  x.mode,
                  `${x.pending ?? 0} pending`,
                  x.created_at,
                  [clientText(x.client), waitingText(x.waiting_on)].filter(Boolean).join('; '),
                ]),
              )
            : '(no runs)',
        );
        if (r.value.length === limit) io.out(moreLine(`nexus runs list --limit ${limit}`, r.value[limit - 1].id));
      }
      return 0;
    }
    if (sub === 'show') {
      const v = await showRun(api, io, id, p.values.limit === undefined ? undefined : { limit, ...(cursor ? { cursor } : {}) });
      if (!v) return 1;
      if (p.values.json) {
        printJson(io, {
          ...v,
          id: v.id,
          agent: v.agent,
          status: v.status,
          rows: v.rows.map(({ error, ...x }) => ({ ...x, id: x.id, origin: x.origin, tool: x.tool, state: x.state, ...(error ? { error } : {}) })),
        });
      } else {
        io.out(`run ${v.id} — ${v.agent ?? '(person)'} — ${v.status} — mode ${v.mode}\nworkspace: ${inlineText(v.workspace)}`);
        if (v.final_answer) io.out(`answer: ${blockText(v.final_answer)}`);
        if (v.error) io.out(`error: ${blockText(v.error)}`);
        if (v.waiting_on?.length) io.out(waitingText(v.waiting_on));
        io.out(v.rows.length ? table(v.rows.map(rowLine)) : '(no rows)');
        if (v.rows_next_cursor) io.out(moreLine(`nexus runs show ${v.id} --limit ${limit}`, v.rows_next_cursor));
      }
      return 0;
    }
    const r = await expectValue(io, api.runsStop({ id }));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else io.out(`run ${r.value.id} ${r.value.status}`);
    return 0;
  });
};
