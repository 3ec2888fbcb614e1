// What `nexus --help` and `nexus COMMAND --help` say beyond a command's own usage: a one-line summary per
// command, where its reference page is, the data dir, the environment and the exit codes. docs/cli.md is the
// long form; test/docs/cli-doc.test.ts keeps the two in step.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../store/data-dir.js';
import { NEXUS_VERSION } from '../../shared/version.js';

/** One line per command, in the order `nexus --help` lists them. A command missing here is listed last. */
export const SUMMARIES: Record<string, string> = {
  serve: 'run the kernel headless: control socket for this CLI + browser host (prints the URL)',
  status: 'version, data dir, pending cards, runs in flight, Stop all, trusted agents',
  agents: 'add (create or update) an agent from a JSON file, or only create or only replace; list, show, remove, revoke',
  run: "start an agent's turn (AGENT PROMPT), or create a person's standalone run",
  append: 'append a tool call of your own to a run (it crosses the approval stage)',
  runs: 'list runs, show one with its rows, stop one',
  inbox: 'the cards waiting for a person: autonomy, orchestration, attention, question',
  approve: 'approve a card (an autonomy park or an orchestration hold)',
  deny: 'deny a card, with an optional reason the agent reads',
  trust: "list or revoke 'Trust for this session'",
  settings: 'read or change the orchestration and approval settings',
  'stop-all': 'force-stop every run in flight and deny chained hops until resume',
  resume: 'lift Stop all',
  entitlements: 'show, import or refresh the nexus.orchestration entitlement',
  chains: 'Recent chains (multi-agent runs) of this app run; clear forgets them',
  tasks: 'delegated tasks (who, state, refusals, last check), or one with the evidence of its checks',
  rules: 'validate a rule list, or evaluate one call against a mode and rules (no kernel)',
  // Listed only once the command exists (globalHelp shows the commands main.ts has).
  open: 'print a new one-time address for the browser host',
  answer: "answer an agent's question (a question card)",
  retry: 'retry the failed hook of an attention card',
  abandon: 'give up the failed hook of an attention card (not the run)',
  connect: "install NEXUS as Claude Code's or Codex's tool hook: their calls cross the approval stage",
  disconnect: 'remove that hook',
  demo: 'play the offline demo: two demo agents on a scripted model run a chain through the real gate',
  desk: "team desk: create or upgrade its schema (desk init URL), this machine's seat (desk status), leave it (desk leave), publish the policy (desk policy push)",
};

/** The reference page(s) of each command, as docs/ paths (anchors are docs/cli.md headings). */
export const REFERENCE: Record<string, string[]> = {
  rules: ['docs/approval-rules.md', 'docs/modes.md'],
  settings: ['docs/orchestration-gate.md'],
  'stop-all': ['docs/orchestration-gate.md'],
  resume: ['docs/orchestration-gate.md'],
  chains: ['docs/orchestration-gate.md'],
  demo: ['docs/delegation.md'],
  entitlements: ['docs/entitlement.md'],
  agents: ['docs/agent-file.md'],
  serve: ['docs/data-dir.md', 'docs/desk.md'],
  desk: ['docs/desk.md'],
};

/** Environment variables NEXUS reads, and who reads each (the kernel is `nexus serve` or the app). */
export const ENVIRONMENT: Array<[name: string, what: string]> = [
  ['NEXUS_DATA_DIR', 'the data dir when --data-dir is not given'],
  ['NEXUS_MODEL_TIMEOUT_S', 'idle timeout of a model call in seconds (default 120; model.timeout_s per agent wins)'],
  ['NEXUS_CONTEXT_BUDGET_TOKENS', 'compaction budget in estimated tokens (default 24000; context_budget_tokens per agent wins)'],
  ['NEXUS_ACCOUNT_URL', 'the account service the entitlement is taken from (https, or http on loopback)'],
  ['NEXUS_ACCOUNT_TOKEN', 'the account credential (bearer token) for NEXUS_ACCOUNT_URL; never stored'],
  ['NEXUS_LOG', 'quiet: the kernel writes only its errors to stderr, not its warnings'],
  ['NEXUS_ENTITLEMENT_PUBLIC_KEY', 'Ed25519 public key (PEM) that verifies entitlements, for self-hosting and tests'],
  ['NEXUS_WORKSPACES_DIR', "where agents' default workspaces are made (default: the data dir's path + -workspaces)"],
  ['NEXUS_BASH', "Windows: the bash.exe agents' commands run with (default: Git for Windows' bash, never WSL's)"],
  ['NEXUS_SKIP_LOGIN_ENV', "desktop app: 1 = do not read the login shell's environment at start"],
  ['NEXUS_LOADING_LOGIN_ENV', 'set to 1 by NEXUS in the login shell it reads the environment of; not for you to set'],
  ['NEXUS_CODEX_BIN', "nexus connect codex without --codex: the codex program asked for the hook's trust hash"],
  ['NEXUS_TESTING', 'nexus serve: 1 lets NEXUS_CLOCK_OFFSET_MS take effect (a testing aid)'],
  ['NEXUS_CLOCK_OFFSET_MS', 'nexus serve with NEXUS_TESTING=1: read the clock this many ms ahead, to test 24 h deadlines'],
  ['NEXUS_DESK_URL', 'nexus serve: join the team desk at this postgres:// URL (--desk wins)'],
  ['NEXUS_MACHINE', "nexus serve with a desk: this machine's name at the desk (--machine wins; default the host name)"],
  ['NEXUS_DESK_PERSON', 'nexus serve with a desk: the Postgres role of the person answering desk cards here'],
  ['NEXUS_DESK_SILENCE_S', 'nexus serve with a desk: seconds without the desk before governed hops stop (default 10)'],
  ['NEXUS_HOOK_SCRIPT', "nexus connect: the hook script to install instead of this NEXUS's own (for tests)"],
];

export const EXIT_CODES = 'exit codes: 0 ok, 1 failure (the reason on stderr), 2 usage error (the usage on stderr)';

/** The docs/ folder beside this build (dist/cli/main.cjs → ../../docs), when it is there. */
function docsRoot(): string | null {
  try {
    const dir = fileURLToPath(new URL('../../docs/', import.meta.url));
    return existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

/** A docs/ page as people can open it: the absolute path when the docs are installed, else the repo path. */
export function docLink(page: string): string {
  const root = docsRoot();
  return root ? `${root}${page.replace(/^docs\//, '')}` : page;
}

/** GitHub-style anchor of a docs/cli.md heading "nexus NAME". */
export const cliAnchor = (name: string) => `docs/cli.md#nexus-${name}`;

/** The lines `nexus COMMAND --help` prints after the command's own usage. */
export function commandFooter(name: string): string {
  const pages = [cliAnchor(name), ...(REFERENCE[name] ?? [])];
  return `${EXIT_CODES}\nreference: ${pages.map(docLink).join('\n           ')}`;
}

export function globalHelp(names: string[]): string {
  const ordered = [...Object.keys(SUMMARIES).filter((n) => names.includes(n)), ...names.filter((n) => !(n in SUMMARIES))];
  const width = Math.max(...ordered.map((n) => n.length));
  const envWidth = Math.max(...ENVIRONMENT.map(([n]) => n.length));
  return [
    `NEXUS ${NEXUS_VERSION} — govern AI agents: an approval stage for every tool call, a gate for every chain.`,
    '',
    'usage: nexus [--data-dir DIR] [--json] COMMAND [ARGS]',
    '       nexus COMMAND --help      flags, limits and reference page of COMMAND',
    '       nexus --version',
    '',
    'commands:',
    ...ordered.map((n) => `  ${n.padEnd(width)}  ${SUMMARIES[n] ?? ''}`.trimEnd()),
    '',
    `data dir: --data-dir DIR, else $NEXUS_DATA_DIR, else ${defaultDataDir()}`,
    '  every command but serve and rules talks to the kernel serving that data dir (its nexus.sock)',
    '',
    'environment:',
    ...ENVIRONMENT.map(([n, what]) => `  ${n.padEnd(envWidth)}  ${what}`),
    `  ${'(model.apiKeyEnv)'.padEnd(envWidth)}  an agent's API key, from the variable its profile names`,
    '',
    EXIT_CODES,
    `reference: ${docLink('docs/cli.md')}`,
  ].join('\n');
}
