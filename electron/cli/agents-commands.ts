// `nexus agents`: add (create or replace), create, replace, list, show, remove, revoke; each save says plainly
// what the agent's commands may reach (sandboxLine).
import { containmentOf } from '../../shared/containment.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { CliCommand, CliIo } from './io.js';
import { readJsonArg } from './read-json.js';
import { expectValue, parse, printJson, table, usageError, withKernel } from './common.js';
import type { MethodInput, MethodOutput, NexusApi } from '../../shared/api/index.js';

type AgentView = MethodOutput<'agentsGet'>;

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
    if (!(file = await readJsonArg(io, arg, 'the agent file'))) return 1;
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

type SandboxShown = Pick<AgentView, 'sandbox' | 'network' | 'env_passthrough' | 'mcpServers' | 'external'>;
/** What the agent's commands may reach: said plainly after every save (the sandbox off above all). */
export function sandboxLine(a: SandboxShown): string {
  if (a.sandbox === false || a.external) return containmentOf(a);
  const hosts = a.network?.allow.length ? a.network.allow.join(', ') : 'none (no network)';
  const servers = Object.entries(a.mcpServers ?? {})
    .filter(([, c]) => c.command)
    .map(([n, c]) => `; MCP ${n} network: ${c.network?.allow.length ? c.network.allow.join(', ') : 'none'}`)
    .join('');
  const env = a.env_passthrough?.length ? `; passes ${a.env_passthrough.join(', ')}` : '';
  return `${containmentOf(a)}; network: ${hosts}${servers}${env}`;
}
