// Kernel-backed commands (DESIGN §5): status, run, append, trust. Runs, agents and the inbox have files of
// their own (runs-commands.ts, agents-commands.ts, inbox-commands.ts).
// Human-readable output by default; the DESIGN JSON with --json.
import { resolve } from 'node:path';
import type { CliCommand } from './io.js';
import { readJsonArg } from './read-json.js';
import { expectValue, oneLine, parse, printJson, usageError, withKernel } from './common.js';
import type { KernelConnection } from './client.js';
import { inlineText } from './terminal-text.js';
import { showRun } from './paging.js';
import type { NexusEvent } from '../../shared/api/index.js';
import type { Mode } from '../../shared/types.js';
import { errorMessage } from '../../shared/errors.js';

/** The status line of a time override (a testing aid of `nexus serve`, set only by its environment). */
export const clockOffsetLine = (ms: number) => `clock offset: ${ms >= 0 ? '+' : ''}${ms} ms (NEXUS_TESTING): expiry deadlines are read on a shifted clock`;

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
  if (p.values.rules && !(rules = await readJsonArg(io, p.values.rules as string, 'the rules file'))) return 1;

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
      return usageError(io, APPEND_USAGE, `--input is not JSON: ${errorMessage(e)}`);
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

// ── trust ────────────────────────────────────────────────────────────────────────────────────────────────
const TRUST_USAGE = 'usage: nexus trust [list] | revoke AGENT | revoke --id GRANT  [--data-dir DIR] [--json]';
/** "Trust for this session" made visible and revocable: each standing grant with its scope and its end. */
export const trustCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, { id: { type: 'string' } }, io, TRUST_USAGE);
  if ('exit' in p) return p.exit;
  const [sub = 'list', agent, ...extra] = p.positionals;
  const id = typeof p.values.id === 'string' ? p.values.id : undefined;
  if (sub !== 'list' && sub !== 'revoke') return usageError(io, TRUST_USAGE, `unknown subcommand ${sub}`);
  if (sub === 'list' && (agent || id || extra.length)) return usageError(io, TRUST_USAGE, 'trust list takes no argument');
  if (sub === 'revoke' && (extra.length || (agent === undefined) === (id === undefined)))
    return usageError(io, TRUST_USAGE, 'trust revoke needs one AGENT or --id GRANT');
  return withKernel(p.values, io, async (api) => {
    if (sub === 'list') {
      const r = await expectValue(io, api.trustList({}));
      if (!r) return 1;
      const grants = r.value.grants;
      if (p.values.json) printJson(io, grants);
      else if (!grants.length) io.out('(nothing is trusted for this session)');
      else for (const g of grants) io.out(`${g.id}  ${g.agent}: ${g.covers}; ends ${g.ends} (granted by ${g.by})`);
      return 0;
    }
    const r = await expectValue(io, api.trustRevoke(id === undefined ? { agent } : { id }));
    if (!r) return 1;
    const who = r.value.agent || (id ?? '');
    if (p.values.json) printJson(io, r.value);
    else if (!r.value.revoked) io.out(id ? `no grant ${id} stands` : `${who} was not trusted for this session`);
    else io.out(`${id ? `grant ${id} of ${who} taken back` : `${who} is no longer trusted`}: its next calls that need approval wait for a person`);
    return 0;
  });
};
