// Kernel-backed commands (DESIGN §5): status, agents, run, append, runs, inbox, approve, deny, answer, retry,
// abandon, trust.
// Human-readable output by default; the DESIGN JSON with --json.
import { dirname, isAbsolute, resolve } from 'node:path';
import type { CliCommand, CliIo } from './io.js';
import { readJsonFile } from './read-json.js';
import { expectValue, oneLine, parse, printJson, table, timeLeft, usageError, withKernel, type Values } from './common.js';
import type { KernelConnection } from './client.js';
import { blockText, inlineText } from './terminal-text.js';
import { moreLine, pageArgs, parseCursor, parseLimit, showRun } from './paging.js';
import type { MethodInput, MethodOutput, NexusApi, NexusEvent, Result } from '../../shared/api/index.js';
import type { Mode } from '../../shared/types.js';
import { grantWords } from '../../shared/api/doors.js';

/** The status line of a time override (a testing aid of `nexus serve`, set only by its environment). */
export const clockOffsetLine = (ms: number) => `clock offset: ${ms >= 0 ? '+' : ''}${ms} ms (NEXUS_TESTING): expiry deadlines are read on a shifted clock`;

// The API's own types, by method (shared/api): a field the kernel renames or drops fails the type check here.
type Row = MethodOutput<'runsAppend'>;
type Inbox = MethodOutput<'inboxList'>[number];
type WaitingOn = NonNullable<MethodOutput<'runsList'>[number]['waiting_on']>;
type AgentView = MethodOutput<'agentsGet'>;
/** What a run's delegation waits on, for people: the hold's request id and hop. */
const waitingText = (w: WaitingOn | undefined) =>
  w?.length ? w.map((h) => `waiting on orchestration hold ${h.request_id} (hop ${h.hop}, ${h.agent} wants ${h.tool})`).join('; ') : '';

async function readJson(io: CliIo, file: string, what: string): Promise<{ value: unknown } | undefined> {
  const r = await readJsonFile(file);
  if (r.ok) return { value: r.value };
  io.err(`nexus: ${what}: ${r.message}`);
  return undefined;
}

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

// ── status ───────────────────────────────────────────────────────────────────────────────────────────────
const STATUS_USAGE = 'usage: nexus status [--data-dir DIR] [--json]';
export const statusCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, STATUS_USAGE);
  if ('exit' in p) return p.exit;
  if (p.positionals.length) return usageError(io, STATUS_USAGE, `unexpected ${p.positionals.join(' ')}`);
  return withKernel(p.values, io, async (api) => {
    const r = await expectValue(io, api.status({}));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else {
      const trusted = r.value.trusted_agents ?? [];
      io.out(
        `NEXUS ${r.value.version} — data dir ${r.value.data_dir}\npending cards: ${r.value.pending}\nruns in flight: ${r.value.runs_in_flight}\nstop all: ${r.value.stop_all ? 'ON' : 'off'}`,
      );
      io.out(`trusted for this session: ${trusted.length ? `${trusted.join(', ')} (nexus trust revoke AGENT)` : 'none'}`);
      if (r.value.clock_offset_ms !== undefined) io.out(clockOffsetLine(r.value.clock_offset_ms));
    }
    return 0;
  });
};

// ── agents ───────────────────────────────────────────────────────────────────────────────────────────────
const AGENTS_USAGE = `usage: nexus agents add FILE | create FILE | replace FILE | list | show NAME | remove NAME | revoke NAME  [--data-dir DIR] [--json]
  add: FILE is an agent file (JSON; - for standard input); a saved NAME is replaced. A relative workspace is
       relative to FILE. NAME: 1–64 letters, digits, _ . - (starting with a letter or digit).
  create: as add, but fails (conflict) when an agent NAME exists; replace: fails (not_found) when none does.
  revoke: revoke the agent's executor application (its held rows lose their addressee).`;
/** What each file-reading subcommand asks of the kernel: create or replace (add), create only, replace only. */
const SAVE_METHOD = { add: 'agentsSave', create: 'agentsCreate', replace: 'agentsReplace' } as const;
type SaveSub = keyof typeof SAVE_METHOD;
const isSave = (sub: string): sub is SaveSub => Object.hasOwn(SAVE_METHOD, sub);

async function saveAgentFile(api: NexusApi, io: CliIo, sub: SaveSub, file: unknown) {
  // The file is whatever the person wrote: the kernel validates it against the agent schema (invalid_input).
  const profile = file as MethodInput<'agentsSave'>;
  if (sub === 'create') return expectValue(io, api.agentsCreate(profile));
  if (sub === 'replace') return expectValue(io, api.agentsReplace(profile));
  return expectValue(io, api.agentsSave(profile));
}

export const agentsCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, AGENTS_USAGE);
  if ('exit' in p) return p.exit;
  const [sub, arg, ...extra] = p.positionals;
  const needs = { add: 1, create: 1, replace: 1, list: 0, show: 1, remove: 1, revoke: 1 } as Record<string, number>;
  if (!sub || !Object.hasOwn(needs, sub)) return usageError(io, AGENTS_USAGE, sub ? `unknown subcommand ${sub}` : 'a subcommand is required');
  if ((needs[sub] === 1 && !arg) || extra.length || (needs[sub] === 0 && arg))
    return usageError(io, AGENTS_USAGE, `agents ${sub} takes ${needs[sub] ? 'one argument' : 'no argument'}`);
  let file: { value: unknown } | undefined;
  if (isSave(sub)) {
    if (!(file = await readJson(io, arg, 'the agent file'))) return 1;
    const shape = Array.isArray(file.value) ? 'an array' : file.value === null ? 'null' : typeof file.value !== 'object' ? `a ${typeof file.value}` : null;
    if (shape) {
      io.err(`nexus: the agent file must be a JSON object (got ${shape}): ${arg}`);
      return 1;
    }
    // A relative workspace in an agent file is relative to that file.
    const v = file.value as { workspace?: unknown } | null;
    if (v && typeof v === 'object' && typeof v.workspace === 'string' && !isAbsolute(v.workspace)) v.workspace = resolve(dirname(resolve(arg)), v.workspace);
  }
  return withKernel(p.values, io, async (api) => {
    if (isSave(sub)) {
      const r = await saveAgentFile(api, io, sub, file!.value);
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else {
        // `agents add` creates or replaces, and says which; create and replace did what they were asked.
        const replaced = sub === 'replace' || ('replaced' in r.value && r.value.replaced);
        const detail = sub === 'add' && replaced ? ': replaced the saved profile' : '';
        io.out(`${replaced ? 'updated' : sub === 'create' ? 'created' : 'saved'} agent ${r.value.agent.name} (mode ${r.value.agent.mode})${detail}`);
        for (const w of r.value.warnings) io.out(`warning: ${w.message}`); // the message names its rule
        io.out(sandboxLine(r.value.agent));
      }
      return 0;
    }
    if (sub === 'list') {
      const r = await expectValue(io, api.agentsList({}));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else io.out(r.value.length ? table(r.value.map((a) => [a.name, a.status, a.mode, `${a.model.provider}:${a.model.model}`])) : '(no agents)');
      return 0;
    }
    if (sub === 'show') {
      const r = await expectValue(io, api.agentsGet({ name: arg }));
      if (!r) return 1;
      printJson(io, r.value);
      return 0;
    }
    if (sub === 'remove') {
      const r = await expectValue(io, api.agentsRemove({ name: arg }));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else io.out(r.value.removed ? `removed ${arg}; stopping ${r.value.runs_stopped} run(s)` : `${arg} was already removed`);
      return 0;
    }
    const r = await expectValue(io, api.executorsRevoke({ agent: arg }));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else io.out(`revoked the executor of ${arg}; ${r.value.readdressed} held row(s) readdressed`);
    return 0;
  });
};

// ── run ──────────────────────────────────────────────────────────────────────────────────────────────────
const RUN_USAGE = `usage: nexus run create --mode bypass|ask|rules [--rules FILE] [--workspace DIR] [--json]
       nexus run AGENT PROMPT [--mode M] [--rules FILE] [--wait] [--json]   (--rules: extra deny/ask rules)
  AGENT PROMPT: --mode and --rules can only tighten the profile, never loosen it (--rules: deny and ask rules).
  --wait: wait for the turn to end and print the final answer (exit 1 unless the run succeeded).
  create: a standalone run of your own for nexus append; prints its id.`;

function waitForRunEnd(
  k: KernelConnection,
  runId: () => string | null,
  onApproval: (data: { row_id: string; tool: string; target: string }) => void,
): { ready: Promise<void>; ended: Promise<void>; known: (id: string) => void } {
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  // Events can arrive before runsStart answers with the id: keep them until it is known.
  const early: Extract<NexusEvent, { type: 'run_event' }>[] = [];
  const handle = (e: Extract<NexusEvent, { type: 'run_event' }>) => {
    if (['run_ended', 'run_stopped', 'run_failed'].includes(e.event)) resolveEnded();
    else if (e.event === 'approval_required') onApproval(e.data as { row_id: string; tool: string; target: string });
  };
  const ready = k.subscribe((e: NexusEvent) => {
    if (e.type !== 'run_event') return;
    const id = runId();
    if (id === null) early.push(e);
    else if (e.run_id === id) handle(e);
  });
  return {
    ready,
    ended,
    known: (id: string) => {
      for (const e of early.splice(0)) if (e.run_id === id) handle(e);
    },
  };
}

export const runCommand: CliCommand = async (argv, io) => {
  const p = parse(
    argv,
    { mode: { type: 'string' }, rules: { type: 'string' }, workspace: { type: 'string' }, wait: { type: 'boolean', default: false } },
    io,
    RUN_USAGE,
  );
  if ('exit' in p) return p.exit;
  const mode = p.values.mode as string | undefined;
  if (mode !== undefined && !['bypass', 'ask', 'rules'].includes(mode)) return usageError(io, RUN_USAGE, '--mode must be bypass, ask or rules');
  let rules: { value: unknown } | undefined;
  if (p.values.rules && !(rules = await readJson(io, p.values.rules as string, 'the rules file'))) return 1;

  if (p.positionals[0] === 'create') {
    if (p.positionals.length > 1) return usageError(io, RUN_USAGE, `unexpected ${p.positionals.slice(1).join(' ')}`);
    if (!mode) return usageError(io, RUN_USAGE, 'run create needs --mode');
    const workspace = p.values.workspace ? resolve(p.values.workspace as string) : undefined;
    return withKernel(p.values, io, async (api) => {
      const r = await expectValue(io, api.runsCreate({ mode: mode as Mode, ...(rules ? { rules: rules.value } : {}), ...(workspace ? { workspace } : {}) }));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else io.out(r.value.id);
      return 0;
    });
  }

  const [agent, prompt, ...extra] = p.positionals;
  if (!agent || !prompt || extra.length) return usageError(io, RUN_USAGE, 'run needs AGENT and PROMPT (quote the prompt)');
  return withKernel(p.values, io, async (api, k) => {
    let id: string | null = null;
    // While waiting, say what the run is waiting on (stderr, so stdout stays the answer).
    const waiter = p.values.wait
      ? waitForRunEnd(
          k,
          () => id,
          (d) => io.err(`waiting for approval: ${d.tool} ${oneLine(String(d.target ?? ''))} — nexus approve ${d.row_id} | nexus deny ${d.row_id}`),
        )
      : null;
    if (waiter) await waiter.ready;
    const r = await expectValue(io, api.runsStart({ agent, prompt, ...(mode ? { mode: mode as Mode } : {}), ...(rules ? { extra_rules: rules.value } : {}) }));
    if (!r) return 1;
    id = r.value.id;
    waiter?.known(id);
    if (!waiter) {
      if (p.values.json) printJson(io, r.value);
      else io.out(r.value.id);
      return 0;
    }
    // Subscribed before starting; still check once in case it ended before our id was known.
    const first = await expectValue(io, api.runsShow({ id }));
    if (!first) return 1;
    if (first.value.status === 'running') await waiter.ended;
    const done = await showRun(api, io, id);
    if (!done) return 1;
    if (p.values.json) printJson(io, done);
    else io.out(done.final_answer ?? `run ${id} ${done.status}${done.error ? `: ${done.error}` : ''}`);
    return done.status === 'succeeded' ? 0 : 1;
  });
};

// ── append ───────────────────────────────────────────────────────────────────────────────────────────────
const APPEND_USAGE = `usage: nexus append RUN --tool T [--input JSON] [--wait] [--data-dir DIR] [--json]
  --input: the tool's input as a JSON object (default {}). --wait: until the row ends (exit 1 if it failed).`;
export const appendCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { tool: { type: 'string' }, input: { type: 'string' }, wait: { type: 'boolean', default: false } }, io, APPEND_USAGE);
  if ('exit' in p) return p.exit;
  const [run, ...extra] = p.positionals;
  if (!run || extra.length) return usageError(io, APPEND_USAGE, 'append needs exactly one RUN id');
  if (!p.values.tool) return usageError(io, APPEND_USAGE, 'append needs --tool');
  let input: unknown = {};
  if (p.values.input !== undefined) {
    try {
      input = JSON.parse(p.values.input as string);
    } catch (e) {
      return usageError(io, APPEND_USAGE, `--input is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const tool = p.values.tool as string;
  return withKernel(p.values, io, async (api) => {
    const r = await expectValue(io, api.runsAppend({ run_id: run, tool, input }));
    if (!r) return 1;
    let row = r.value;
    if (p.values.wait) {
      while (['ready', 'needs_approval', 'running'].includes(row.state)) {
        const w = await expectValue(io, api.rowsWait({ id: row.id, timeout_ms: 600_000 }));
        if (!w) return 1;
        row = w.value;
      }
    }
    if (p.values.json) printJson(io, row);
    else {
      io.out(`${row.id} ${row.state}${row.error ? ` (${row.error.code}: ${inlineText(row.error.detail)})` : ''}`);
      if (p.values.wait && row.result) io.out(row.result.content.map((c) => c.text).join('\n'));
    }
    return row.state === 'failed' || row.state === 'timed_out' || row.state === 'canceled' ? 1 : 0;
  });
};

// ── runs ─────────────────────────────────────────────────────────────────────────────────────────────────
const RUNS_USAGE = `usage: nexus runs list [--limit N] [--cursor ID] | show ID [--limit N] [--cursor ROW] | stop ID  [--data-dir DIR] [--json]
  --limit N: 1–1000 runs a list page (default 100), most recent first; show: 1–500 rows a page.
  --cursor: the last id of the previous page (list: a run; show: a row, with --limit; JSON: rows_next_cursor).
  show without --limit: every row. stop: force-stop (rows and hook work canceled).`;
export const runsCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { limit: { type: 'string' }, cursor: { type: 'string' } }, io, RUNS_USAGE);
  if ('exit' in p) return p.exit;
  const [sub = 'list', id, ...extra] = p.positionals;
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
                  waitingText(x.waiting_on),
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

type SandboxShown = Pick<AgentView, 'sandbox' | 'network' | 'env_passthrough' | 'mcpServers'>;
/** What the agent's commands may reach: said plainly after every save (the sandbox off above all). */
export function sandboxLine(a: SandboxShown): string {
  if (a.sandbox === false) return 'sandbox: OFF: its commands run unsandboxed, with every file and host the user can reach';
  const hosts = a.network?.allow.length ? a.network.allow.join(', ') : 'none (no network)';
  const servers = Object.entries(a.mcpServers ?? {})
    .filter(([, c]) => c.command)
    .map(([n, c]) => `; MCP ${n} network: ${c.network?.allow.length ? c.network.allow.join(', ') : 'none'}`)
    .join('');
  const env = a.env_passthrough?.length ? `; passes ${a.env_passthrough.join(', ')}` : '';
  return `sandbox: on: writes only its workspace; network: ${hosts}${servers}${env}`;
}

// ── inbox, approve, deny ─────────────────────────────────────────────────────────────────────────────────
const INBOX_USAGE = `usage: nexus inbox [--limit N] [--cursor ID] [--data-dir DIR] [--json]
  kinds: autonomy, orchestration (a per-hop hold; its id is the request_id), attention, question.
  Oldest first. Without --limit every pending card is listed (read a page at a time); --limit N (1–1000) lists
  one page, and --cursor ID starts it after that card.`;
/** Cards asked for per request when the inbox is listed whole. */
const INBOX_FOLLOW_PAGE = 500;
export const inboxCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { limit: { type: 'string' }, cursor: { type: 'string' } }, io, INBOX_USAGE);
  if ('exit' in p) return p.exit;
  if (p.positionals.length && p.positionals[0] !== 'list') return usageError(io, INBOX_USAGE, `unexpected ${p.positionals.join(' ')}`);
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
            const said =
              (i.kind === 'attention' || i.kind === 'question') && i.message
                ? `\n    ${i.kind === 'question' ? 'asks' : 'says'}: ${oneLine(i.message, 300)}\n    ${i.kind === 'question' ? `nexus answer ${i.id} TEXT` : `nexus retry ${i.id} | nexus abandon ${i.id}`}`
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
const unsandboxedMark = (i: Inbox): string => ((i.effect as { sandboxed?: unknown } | undefined)?.sandboxed === false ? ' (UNSANDBOXED)' : '');

const APPROVE_USAGE = `usage: nexus approve ID [--trust-session] [--data-dir DIR] [--json]
  --trust-session: also grant that agent's later autonomy parks until NEXUS quits (never an orchestration hold).`;
export const approveCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { 'trust-session': { type: 'boolean', default: false } }, io, APPROVE_USAGE);
  if ('exit' in p) return p.exit;
  return answer(p.values, p.positionals, io, APPROVE_USAGE, (api, id) => api.inboxApprove({ id, trust_session: !!p.values['trust-session'] }), 'approved');
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
    if (values.json) printJson(io, r.value);
    else io.out(`${verb} ${r.value.id} (now ${r.value.state})`);
    return 0;
  });
}

// ── trust ────────────────────────────────────────────────────────────────────────────────────────────────
const TRUST_USAGE = 'usage: nexus trust [list] | revoke AGENT  [--data-dir DIR] [--json]';
/** "Trust for this session" made visible and revocable: which agents' parks are granted without asking. */
export const trustCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, TRUST_USAGE);
  if ('exit' in p) return p.exit;
  const [sub = 'list', agent, ...extra] = p.positionals;
  if (sub !== 'list' && sub !== 'revoke') return usageError(io, TRUST_USAGE, `unknown subcommand ${sub}`);
  if ((sub === 'list' && agent) || (sub === 'revoke' && !agent) || extra.length)
    return usageError(io, TRUST_USAGE, sub === 'list' ? 'trust list takes no argument' : 'trust revoke needs one AGENT');
  return withKernel(p.values, io, async (api) => {
    if (sub === 'list') {
      const r = await expectValue(io, api.status({}));
      if (!r) return 1;
      const names = r.value.trusted_agents ?? [];
      if (p.values.json) printJson(io, names);
      else io.out(names.length ? names.join('\n') : '(no agent is trusted for this session)');
      return 0;
    }
    const r = await expectValue(io, api.trustRevoke({ agent }));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else
      io.out(
        r.value.revoked ? `${agent} is no longer trusted: its next calls that need approval wait for a person` : `${agent} was not trusted for this session`,
      );
    return 0;
  });
};
