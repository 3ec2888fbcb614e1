// Agent profiles (DESIGN §2): saved with their rules validated and compiled once (located errors refuse the
// save; lint warnings come back), removed by fencing credentials and force-stopping their runs, and the
// approval a run-backed run freezes: the profile's, tightened (never loosened) by the request.
import { compileRules, DEFAULT_KNOWN_TOOLS, lintRules, validateRules, type CompiledRules, type RuleWarning } from '../../shared/rules/index.js';
import { didYouMean } from '../../shared/did-you-mean.js';
import type { AgentProfile, ApprovalRule, LifecycleHooks, Mode } from '../../shared/types.js';
import type { AgentRow } from '../store/queries/agents.js';
import { KernelError, notFound } from '../kernel/errors.js';
import { LifecycleHooksInput, ruleErrorDetails } from '../../shared/api/approval.js';
import { detailPath } from '../../shared/api/contract.js';
import { splitSecrets } from '../kernel/agent-secrets.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Run } from '../kernel/types.js';
import { errorMessage } from '../../shared/errors.js';
import { log } from '../log.js';

/**
 * Strictness of the modes, loosest first. bypass grants every call no deny names; ask parks what no allow
 * rule names (a person may still let it run); rules refuses what no allow rule names (nothing unnamed ever
 * runs). Ask and rules agree on every matched call, and on an unmatched one rules' outcome (refused) is a
 * subset of ask's (maybe run, after a person approves), so: bypass < ask < rules.
 */
export const MODE_STRICTNESS: Readonly<Record<Mode, number>> = { bypass: 0, ask: 1, rules: 2 };
export const stricterMode = (a: Mode, b: Mode): Mode => (MODE_STRICTNESS[b] > MODE_STRICTNESS[a] ? b : a);

/** lifecycle_hooks checked by the API's own schema (shared/api/approval.ts): the first problem is the message,
 *  every problem a detail at its path. Null or absent is no hooks. */
export function validateHooks(value: unknown): LifecycleHooks {
  const r = LifecycleHooksInput.safeParse(value);
  if (r.success) return r.data;
  const details = r.error.issues.map((i) => ({ path: detailPath(['lifecycle_hooks', ...i.path]), message: i.message }));
  throw new KernelError('invalid_hooks', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
}

/** `field`: where the list sits in the input (the details' paths start there); `where`: the message's subject. */
function checkedRules(value: unknown, field: string, where = field): { rules: ApprovalRule[]; compiled: CompiledRules } {
  const v = validateRules(value ?? []);
  if (!v.ok) throw new KernelError('invalid_rules', `${where} are invalid: ${v.errors.map((e) => e.message).join('; ')}`, ruleErrorDetails(field, v.errors));
  return { rules: v.rules, compiled: compileRules(v.rules) };
}

/** Save (create or replace) a profile. Input already passed the API's zod schema. `replaced`: an active
 *  profile of that name existed and was overwritten (a removed one's name starts fresh). */
export function saveAgent(
  kernel: Kernel,
  input: AgentProfile & { approval_rules?: unknown; lifecycle_hooks?: unknown },
): { agent: AgentRow; warnings: RuleWarning[]; replaced: boolean } {
  const { rules } = checkedRules(input.approval_rules, 'approval_rules');
  const hooks = validateHooks(input.lifecycle_hooks);
  refuseUnknownTools(kernel, input.tools);
  const key = input.model?.apiKeyEnv;
  if (key && input.env_passthrough?.includes(key))
    throw new KernelError('invalid_input', `env_passthrough may not name ${key}: it holds this agent's provider key, which never reaches its commands.`);
  const replaced = kernel.records.agent(input.name)?.status === 'active';
  // Secrets leave the profile before it reaches the database; a { set: true } keeps the value stored.
  const { servers, secrets } = splitSecrets(input.mcpServers, replaced ? storedSecrets(kernel, input.name) : {});
  const profile: AgentProfile = { ...input, approval_rules: rules, lifecycle_hooks: hooks, ...(servers ? { mcpServers: servers } : {}) };
  kernel.secrets.set(profile.name, secrets);
  kernel.records.saveAgent(profile);
  kernel.agentSaved(profile.name);
  kernel.emit({ type: 'agents_changed' });
  return { agent: kernel.records.agent(profile.name)!, warnings: lintRules(rules, DEFAULT_KNOWN_TOOLS, input.mode), replaced };
}

/** `tools` limits the kernel's tools: a name it does not know would limit nothing, so it is refused, with the
 *  nearest known name and the whole list (the kernel's registry, and the built-in names rules know). */
function refuseUnknownTools(kernel: Kernel, tools: readonly string[] | undefined): void {
  if (!tools?.length) return;
  const known = [...new Set([...kernel.tools.list().map((t) => t.name), ...DEFAULT_KNOWN_TOOLS])].filter((t) => !t.includes('*'));
  const globs = DEFAULT_KNOWN_TOOLS.filter((t) => t.endsWith('*')).map((t) => t.slice(0, -1));
  const details = tools.flatMap((t, i) => {
    if (known.includes(t) || globs.some((g) => t.startsWith(g))) return [];
    const near = didYouMean(t, known);
    return [{ path: `tools.${i}`, message: `unknown tool ${JSON.stringify(t)}${near ? `; did you mean ${near}?` : ''} (known tools: ${known.join(', ')})` }];
  });
  if (details.length) throw new KernelError('invalid_input', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
}

function storedSecrets(kernel: Kernel, name: string) {
  try {
    return kernel.secrets.get(name).secrets;
  } catch (e) {
    throw new KernelError('secrets_unreadable', errorMessage(e));
  }
}

export const listAgentProfiles = (kernel: Kernel): AgentRow[] => kernel.records.agents();
export function getAgentProfile(kernel: Kernel, name: string): AgentRow {
  const a = kernel.records.agent(name);
  if (!a) throw notFound('agent', name);
  return a;
}

/**
 * Remove an agent: credentials fenced (key reference cleared and unusable), no new runs, and every run of it
 * still running force-stopped asynchronously through the ordinary stop path (held rows canceled).
 */
export function removeAgent(kernel: Kernel, name: string): { removed: boolean; runs_stopped: number } {
  const agent = kernel.records.agent(name);
  if (!agent) throw notFound('agent', name);
  if (!kernel.records.markAgentRemoved(name)) return { removed: false, runs_stopped: 0 };
  kernel.agentRemoved(name);
  try {
    kernel.secrets.delete(name); // fenced: a removed agent's MCP secrets go with it
  } catch (e) {
    log.error(`the MCP secrets of removed agent ${name} could not be deleted`, e);
  }
  const runs = kernel.records.runs({ agent: name, status: 'running', limit: 1_000_000 });
  setImmediate(() => {
    for (const r of runs) {
      try {
        if (kernel.isOpen) kernel.stopRun(r.id, { reason: `agent ${name} was removed` });
      } catch (e) {
        log.error(`stopping run ${r.id} of removed agent ${name} failed`, e);
      }
    }
    // What the stops did not close (a failed hook's attention card, a question on an ended run) closes with
    // its agent: nothing is left in the inbox that nobody can act for.
    if (!kernel.isOpen) return;
    for (const item of kernel.inbox.pending()) if (item.agent === name) kernel.inbox.resolve(item.id, 'canceled', `agent ${name} was removed`);
  });
  kernel.emit({ type: 'agents_changed' });
  return { removed: true, runs_stopped: runs.length };
}

/** Revoke the agent's executor application: held rows lose their addressee; later parks get none either. */
export function revokeExecutor(kernel: Kernel, name: string): number {
  if (!kernel.records.agent(name)) throw notFound('agent', name);
  kernel.records.revokeExecutor(name);
  return kernel.readdressRows(name);
}

export interface ApprovalRequest {
  /** A stricter mode than the profile's tightens; a looser one is refused (a run never loosens its profile). */
  mode?: Mode;
  /** Extra rules: deny and ask only (an allow would loosen), appended to the profile's. */
  extra_rules?: unknown;
}

/** The mode and rules a run of this profile freezes, tightened by the request. */
export function tightenApproval(
  profile: Pick<AgentProfile, 'mode' | 'approval_rules'> & { name?: string },
  request: ApprovalRequest = {},
): { mode: Mode; rules: ApprovalRule[]; compiled: CompiledRules } {
  const extra = checkedRules(request.extra_rules ?? [], 'extra_rules').rules;
  const loosening = extra.map((r, index) => ({ r, index })).filter(({ r }) => r.verdict === 'allow');
  if (loosening.length) {
    throw new KernelError(
      'invalid_rules',
      'extra_rules may only add deny or ask rules (an allow would loosen the profile)',
      loosening.map(({ index }) => ({ path: detailPath(['extra_rules', index, 'verdict']), message: `rule ${index}: extra rules may only deny or ask` })),
    );
  }
  if (request.mode && MODE_STRICTNESS[request.mode] < MODE_STRICTNESS[profile.mode]) {
    const who = 'name' in profile && typeof profile.name === 'string' ? `agent ${profile.name}'s` : "the agent's";
    throw new KernelError(
      'invalid_input',
      `A run can only tighten its profile: ${who} profile mode is ${profile.mode}; --mode ${request.mode} would loosen it.`,
    );
  }
  const mode = request.mode ? stricterMode(profile.mode, request.mode) : profile.mode;
  // Each half passed on its own; together they must still fit the one rule envelope (64 KiB).
  const { rules, compiled } = checkedRules(
    [...(profile.approval_rules ?? []), ...extra],
    'extra_rules',
    "the profile's approval rules together with the extra rules",
  );
  return { mode, rules, compiled };
}

/** Create a run-backed run for an agent (turns' startTurn calls this), approval frozen from its profile. */
export function createAgentRun(
  kernel: Kernel,
  a: {
    agent: string;
    prompt?: string | null;
    request?: ApprovalRequest;
    parent?: { run_id: string; row_id: string } | null;
    chain_id?: string | null;
    created_by?: string | null;
  },
): Run {
  const profile = getAgentProfile(kernel, a.agent);
  if (profile.status === 'removed') throw new KernelError('agent_removed', `Agent ${a.agent} was removed.`);
  if (profile.external)
    throw new KernelError(
      'external_agent',
      `Agent ${a.agent} is ${profile.external.client} connected through its tool hook; its runs start when it calls a tool, not from NEXUS.`,
    );
  const { mode, compiled } = tightenApproval(profile, a.request);
  return kernel.createRun({
    agent: a.agent,
    mode,
    rules: compiled,
    hooks: profile.lifecycle_hooks ?? {},
    workspace: profile.workspace,
    prompt: a.prompt ?? null,
    parent: a.parent ?? null,
    chain_id: a.chain_id ?? null,
    created_by: a.created_by ?? null,
  });
}
