// `nexus rules check FILE [--json]` and `nexus rules eval …` (DESIGN §5). Pure: no kernel, no data dir.
// Exit codes: check — 0 valid, 1 invalid (an unreadable or non-JSON file is invalid too, with a located
// message), 2 usage; eval — 0 whatever the outcome, 1 when the rules are invalid, 2 usage (a bad flag, a
// missing --mode/--tool, an --input that is not JSON). FILE may be `-` for standard input.
import { parseArgs } from 'node:util';
import { MODES, ORIGINS, type Mode, type Origin } from '../../shared/types.js';
import { compileRules, EMPTY_RULES, evaluateCall, validateRules, type RuleError, type RuleWarning } from '../../shared/rules/index.js';
import { checkReport, evalReport } from '../../shared/rules/reports.js';
import type { CliCommand, CliIo } from './io.js';
import { readJsonFile } from './read-json.js';

const USAGE = `usage: nexus rules check FILE [--mode MODE] [--json]
       nexus rules eval --mode bypass|ask|rules [--rules FILE] --tool NAME [--input JSON] [--origin model|author|kernel] [--json]
FILE may be - for standard input. A rule list is a JSON array of at most 64 KiB.
check: exit 0 valid (warnings printed), 1 invalid, 2 usage. eval: exit 0 whatever the outcome, 1 invalid rules, 2 usage.`;

class UsageError extends Error {}

type Loaded = { ok: true; value: unknown } | { ok: false; errors: RuleError[] };

/** Reads and parses a rules file; failures are rule errors (index null), never exceptions. */
async function loadJson(file: string): Promise<Loaded> {
  const r = await readJsonFile(file);
  return r.ok ? r : { ok: false, errors: [{ index: null, message: r.message }] };
}

function printErrors(io: CliIo, where: string, errors: RuleError[]) {
  io.out(`${where}: invalid approval rules (${errors.length} error${errors.length === 1 ? '' : 's'})`);
  for (const e of errors) io.out(`  error: ${e.message}`);
}
const printWarnings = (io: CliIo, warnings: RuleWarning[]) => {
  for (const w of warnings) io.out(`  warning (${w.kind}): ${w.message}`);
};

async function check(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, mode: { type: 'string' }, 'data-dir': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `expected one FILE, got ${positionals.length}` : 'missing FILE');
  const mode = values.mode === undefined ? undefined : MODES.find((m) => m === values.mode);
  if (values.mode !== undefined && !mode) throw new UsageError(`--mode must be one of ${MODES.join(', ')}`);
  const file = positionals[0];
  const loaded = await loadJson(file);
  const v = loaded.ok ? validateRules(loaded.value) : loaded;
  const report = checkReport(v, mode);
  const warnings = report.warnings;
  if (values.json) {
    io.out(JSON.stringify(report));
  } else if (v.ok) {
    io.out(
      `${file}: valid (${v.rules.length} rule${v.rules.length === 1 ? '' : 's'}${warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''})`,
    );
    printWarnings(io, warnings);
  } else printErrors(io, file, v.errors);
  return v.ok ? 0 : 1;
}

async function evaluate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      mode: { type: 'string' },
      rules: { type: 'string' },
      tool: { type: 'string' },
      input: { type: 'string' },
      origin: { type: 'string' },
      json: { type: 'boolean' },
      // Pure commands: accepted like every other command's, and ignored (no kernel, no data dir).
      'data-dir': { type: 'string' },
    },
    allowPositionals: false,
    strict: true,
  });
  void positionals;
  const mode = values.mode;
  if (mode === undefined) throw new UsageError('--mode is required (bypass, ask or rules)');
  if (!(MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be bypass, ask or rules (got ${JSON.stringify(mode)})`);
  if (values.tool === undefined || values.tool === '') throw new UsageError('--tool NAME is required');
  const origin = values.origin ?? 'model';
  if (!(ORIGINS as readonly string[]).includes(origin)) throw new UsageError(`--origin must be model, author or kernel (got ${JSON.stringify(origin)})`);
  let input: unknown = {};
  if (values.input !== undefined) {
    try {
      input = JSON.parse(values.input);
    } catch (e) {
      throw new UsageError(`--input must be JSON (${(e as Error).message})`);
    }
  }

  let compiled = EMPTY_RULES;
  if (values.rules !== undefined) {
    const loaded = await loadJson(values.rules);
    const v = loaded.ok ? validateRules(loaded.value) : loaded;
    if (!v.ok) {
      if (values.json) io.out(JSON.stringify({ valid: false, errors: v.errors }));
      else printErrors(io, values.rules, v.errors);
      return 1;
    }
    compiled = compileRules(v.rules);
  }

  const d = evaluateCall(compiled, mode as Mode, { tool: values.tool, input, origin: origin as Origin });
  if (values.json) {
    io.out(JSON.stringify(evalReport(d)));
    return 0;
  }
  const target = `${d.tool}${d.runner ? ` (runner ${d.runner})` : ''}`;
  const rules = d.matched.length ? `matched rule${d.matched.length === 1 ? '' : 's'} ${d.matched.join(', ')}` : 'no rule matched';
  if (d.outcome === 'granted') io.out(`granted by ${d.granted_by}: ${target}; ${rules}`);
  else if (d.outcome === 'parked') io.out(`parked (needs approval): ${target}; ${rules}`);
  else io.out(`failed ${d.error.code}: ${d.error.detail}\n  ${target}; ${rules}`);
  return 0;
}

export const rulesCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(USAGE);
    return 0;
  }
  try {
    if (sub === 'check') return await check(rest, io);
    if (sub === 'eval') return await evaluate(rest, io);
    throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(sub)}`);
  } catch (e) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed flags.
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`nexus rules: ${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
};
