// Governance commands (DESIGN §5): settings get|set KEY VALUE, stop-all, resume, chains [clear], tasks [list] | show ID
// (entitlements: entitlements-commands.ts). They reach the running kernel through the control socket of --data-dir.
import { deskView } from './desk-views.js';
import type { CliCommand, CliIo } from './io.js';
import { inlineText } from './terminal-text.js';
import { expectValue, oneLine, parse, printJson, table, usageError, withKernel, type Parsed } from './common.js';
import { moreLine, pageArgs } from './paging.js';
import type { MethodInput } from '../../shared/api/index.js';
import { isSettableKey, SETTABLE_KEYS } from '../../shared/orchestration/settings.js';
import { didYouMean } from '../../shared/did-you-mean.js';

// The API's own types, by method (shared/api): a field the kernel renames or drops fails the type check here.
type SettingsView = Record<string, unknown>;

const args = (argv: string[], io: CliIo, usage: string, paged = false): Parsed | number => {
  const p = parse(argv, paged ? { limit: { type: 'string' }, cursor: { type: 'string' }, desk: { type: 'boolean', default: false } } : {}, io, usage);
  return 'exit' in p ? p.exit : p;
};

const settingsText = (s: SettingsView) =>
  Object.entries(s)
    .map(([k, v]) => `${k} = ${Array.isArray(v) ? v.join(',') || '(empty)' : String(v)}`)
    .join('\n');

// ── settings ───────────────────────────────────────────────────────────────────────────────────────────────
const SETTINGS_USAGE = `usage: nexus settings get [KEY] | set KEY VALUE  [--data-dir DIR] [--json]
keys: orchestration.enabled (true|false), orchestration.maxDepth N, orchestration.maxAgents N,
      orchestration.allowlist NAME,NAME,… (comma-separated agent names; "" for none),
      orchestration.perHopApproval (true|false), approval.stopHookCap N, delegation.maxRefusals N,
      clients.idleMinutes N
limits: maxDepth 1–100, maxAgents 1–1000, stopHookCap 0–100, maxRefusals 1–100, idleMinutes 1–10080;
        allowlist at most 1000 names of 1–64 letters, digits, _ . -. Stop all: nexus stop-all / resume.`;
export const settingsCommand: CliCommand = async (argv, io) => {
  const p = args(argv, io, SETTINGS_USAGE);
  if (typeof p === 'number') return p;
  const [sub, key, value, ...extra] = p.positionals;
  if (sub === 'get') {
    if (value !== undefined) return usageError(io, SETTINGS_USAGE, 'settings get takes at most a KEY');
  } else if (sub === 'set') {
    if (!key || value === undefined || extra.length) return usageError(io, SETTINGS_USAGE, 'settings set takes KEY VALUE');
    // A misspelt key is a usage error (exit 2) that lists the keys, not the API's schema message (exit 1).
    if (key === 'orchestration.stopAll') {
      io.err('nexus: orchestration.stopAll is not set with settings set: use `nexus stop-all` and `nexus resume`.');
      return 1;
    }
    if (!isSettableKey(key)) return usageError(io, SETTINGS_USAGE, unknownSetting(key));
  } else return usageError(io, SETTINGS_USAGE, sub ? `unknown subcommand ${sub}` : 'a subcommand is required');
  return withKernel(p.values, io, async (api) => {
    const answer = await expectValue(io, sub === 'set' ? api.settingsSet({ key: key as MethodInput<'settingsSet'>['key'], value }) : api.settingsGet({}));
    if (!answer) return 1;
    // Read by the key the person typed (checked above to be a setting).
    const r: { value: SettingsView } = answer;
    // An allowlisted name that is no agent yet is stored (it may be added later): the kernel says so, once.
    // (Read without zod: a client command loads no npm package.)
    for (const message of warningsOf(answer.value)) io.err(`nexus: warning: ${message}`);
    if (sub === 'get' && key) {
      if (!(key in r.value)) return usageError(io, SETTINGS_USAGE, `unknown setting ${JSON.stringify(key)}`);
      if (p.values.json) printJson(io, r.value[key]);
      else io.out(settingsText({ [key]: r.value[key] }));
      return 0;
    }
    if (p.values.json) printJson(io, r.value);
    else io.out(sub === 'set' ? settingsText({ [key!]: r.value[key!] }) : settingsText(r.value));
    return 0;
  });
};

/** The sentences of settingsSet's `warnings` (settingsGet has none). */
function warningsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || !('warnings' in value) || !Array.isArray(value.warnings)) return [];
  return value.warnings.flatMap((w: unknown) => (typeof w === 'object' && w !== null && 'message' in w && typeof w.message === 'string' ? [w.message] : []));
}

// ── stop-all / resume ──────────────────────────────────────────────────────────────────────────────────────
const STOP_USAGE = 'usage: nexus stop-all [--data-dir DIR] [--json]';
export const stopAllCommand: CliCommand = async (argv, io) => {
  const p = args(argv, io, STOP_USAGE);
  if (typeof p === 'number') return p;
  if (p.positionals.length) return usageError(io, STOP_USAGE, `unexpected ${p.positionals.join(' ')}`);
  return withKernel(p.values, io, async (api) => {
    const r = await expectValue(io, api.stopAll({}));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else io.out(`Stop all is in effect: ${r.value.stopped_runs} run(s) stopped; every chained hop is denied until \`nexus resume\`.`);
    return 0;
  });
};

const RESUME_USAGE = 'usage: nexus resume [--data-dir DIR] [--json]';
export const resumeCommand: CliCommand = async (argv, io) => {
  const p = args(argv, io, RESUME_USAGE);
  if (typeof p === 'number') return p;
  if (p.positionals.length) return usageError(io, RESUME_USAGE, `unexpected ${p.positionals.join(' ')}`);
  return withKernel(p.values, io, async (api) => {
    const r = await expectValue(io, api.resume({}));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else io.out('Resumed: Stop all is lifted.');
    return 0;
  });
};

// ── chains ─────────────────────────────────────────────────────────────────────────────────────────────────
const CHAINS_USAGE = `usage: nexus chains [--limit N] [--cursor CHAIN] [--desk] | clear  [--data-dir DIR] [--json]
  --limit N: 1–500 chains a page (default 50). --cursor: the last chain_id of the previous page.
  --desk: every machine's chains at the team desk this machine joined.`;
export const chainsCommand: CliCommand = async (argv, io) => {
  const p = args(argv, io, CHAINS_USAGE, true);
  if (typeof p === 'number') return p;
  const [sub, ...extra] = p.positionals;
  if ((sub !== undefined && sub !== 'clear') || extra.length) return usageError(io, CHAINS_USAGE, `unexpected ${p.positionals.join(' ')}`);
  if (p.values.desk)
    return sub === undefined ? deskView('chains', p.values, io, CHAINS_USAGE) : usageError(io, CHAINS_USAGE, '--desk lists chains; it clears nothing');
  const page = pageArgs(p, io, CHAINS_USAGE, 500, 50);
  if (typeof page === 'number') return page;
  return withKernel(p.values, io, async (api) => {
    if (sub === 'clear') {
      const r = await expectValue(io, api.chainsClear({}));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else io.out(`Forgot ${r.value.cleared} chain(s). Nothing was stopped and no limit changed.`);
      return 0;
    }
    const r = await expectValue(io, api.chainsList(page));
    if (!r) return 1;
    if (p.values.json) {
      printJson(io, r.value);
      return 0;
    }
    if (!r.value.length) io.out(page.cursor ? 'No more chains.' : 'No multi-agent chains in this run of the app yet.');
    for (const c of r.value) {
      io.out(`${c.chain_id}  ${c.agents.join(' → ')}  (${c.hops.length} hops, last active ${c.last_active_at})`);
      io.out(
        table(
          c.hops.map((h) => [
            `  ${h.hop}`,
            h.agent,
            h.action,
            oneLine(h.target, 50),
            // A denial's reason and a refusal's cause (run_stopped, approval_expired) both print beside the word.
            h.code ? `${h.verdict}: ${h.code}` : h.verdict.replace('_', ' '),
          ]),
        ),
      );
    }
    if (r.value.length === page.limit) io.out(moreLine(`nexus chains --limit ${page.limit}`, r.value[page.limit - 1].chain_id));
    return 0;
  });
};

// ── tasks ──────────────────────────────────────────────────────────────────────────────────────────────────
const TASKS_USAGE = `usage: nexus tasks [list] [--limit N] [--cursor ID] [--desk] [--json]   delegated tasks, newest first
       nexus tasks show ID [--json]   one task with its acceptance check's evidence  [--data-dir DIR]
  --limit N: 1–1000 tasks a page (default 200). --cursor: the last id of the previous page.
  --desk: every machine's delegated tasks at the team desk, each with how many of its checks passed.`;
export const tasksCommand: CliCommand = async (argv, io) => {
  const p = args(argv, io, TASKS_USAGE, true);
  if (typeof p === 'number') return p;
  const [sub = 'list', id, ...extra] = p.positionals;
  if (sub === 'list' ? id !== undefined : sub !== 'show' || !id || extra.length)
    return usageError(
      io,
      TASKS_USAGE,
      sub === 'list' || sub === 'show' ? `tasks ${sub === 'list' ? 'list takes no argument' : 'show needs one ID'}` : `unknown subcommand ${sub}`,
    );
  if (sub === 'show' && (p.values.limit !== undefined || p.values.cursor !== undefined))
    return usageError(io, TASKS_USAGE, 'tasks show takes no --limit or --cursor');
  if (p.values.desk) return sub === 'list' ? deskView('tasks', p.values, io, TASKS_USAGE) : usageError(io, TASKS_USAGE, '--desk is for tasks list');
  if (sub === 'list') {
    const page = pageArgs(p, io, TASKS_USAGE, 1000, 200);
    if (typeof page === 'number') return page;
    return withKernel(p.values, io, async (api) => {
      const r = await expectValue(io, api.tasksList(page));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else if (!r.value.length) io.out(page.cursor ? '(no more delegated tasks)' : '(no delegated tasks)');
      else {
        const rows = r.value.map((t) => [
          t.id,
          t.delegator,
          t.recipient,
          t.state,
          String(t.refusals),
          t.last_check_exit_code === null ? '-' : String(t.last_check_exit_code),
          t.waiting_on.length ? `waiting on hold ${t.waiting_on[0]!.request_id} (hop ${t.waiting_on[0]!.hop})` : oneLine(t.task, 50),
        ]);
        io.out(table([['TASK', 'DELEGATOR', 'RECIPIENT', 'STATE', 'REFUSALS', 'LAST CHECK', ''], ...rows]));
        if (r.value.length === page.limit) io.out(moreLine(`nexus tasks --limit ${page.limit}`, r.value[page.limit - 1].id));
      }
      return 0;
    });
  }
  return withKernel(p.values, io, async (api) => {
    const r = await expectValue(io, api.tasksShow({ id: id! }));
    if (!r) return 1;
    const t = r.value;
    if (p.values.json) {
      printJson(io, {
        ...t,
        evidence: t.evidence.map((e) => ({
          command: e.command,
          exit_code: e.exit_code,
          passed: e.passed,
          output: e.output,
          at: e.at,
          duration_ms: e.duration_ms,
        })),
      });
      return 0;
    }
    io.out(
      `${t.id}  ${t.status}  ${t.delegator} → ${t.recipient}  (refusals: ${t.refusals})\ntask: ${oneLine(t.task, 100)}\ncheck: ${inlineText(t.acceptance_check.command)}`,
    );
    if (!t.evidence.length) io.out('  no acceptance check has run yet');
    for (const e of t.evidence)
      io.out(
        `  ${e.at}  ${e.passed ? 'PASSED' : 'FAILED'}  exit ${e.exit_code ?? '-'}  ${Math.round(e.duration_ms)} ms  ${oneLine(e.output, 80) || '(no output)'}`,
      );
    if (t.answer) io.out(`answer: ${oneLine(t.answer, 200)}`);
    return 0;
  });
};

/** `unknown setting "orchestration.maxDept"; did you mean orchestration.maxDepth?` */
function unknownSetting(key: string): string {
  const near = didYouMean(key, SETTABLE_KEYS);
  return `unknown setting ${JSON.stringify(key)}${near ? `; did you mean ${near}?` : ''}`;
}
