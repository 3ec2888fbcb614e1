// An agent profile as the API takes it (AgentProfileInput) and lists it (AgentView), with its sandbox network
// policy, passed-through variables and MCP servers.
import { z } from 'zod';
import { strict } from './contract.js';
import { Mode, Name } from './common.js';
import { isNetworkRule, NETWORK_RULE_HINT } from '../net/host.js';
import { ApprovalRuleView, approvalRules, LifecycleHooksInput, LifecycleHooksView } from './approval.js';

/** A host a sandboxed command may reach: a DNS name, `*.` and a DNS name (every subdomain), or an IP address. */
export const NetworkHost = z.string().max(253).refine(isNetworkRule, NETWORK_RULE_HINT);
export const NetworkPolicy = strict({ allow: z.array(NetworkHost).max(100) }).strict();
/** A variable passed through to an agent's commands; NEXUS's own (NEXUS_*) never are. */
export const EnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
  .refine((n) => !/^NEXUS_/i.test(n), 'NEXUS_* variables are never passed to an agent');
/** Where a secret was: listed instead of its value; saved back, it keeps the stored value. */
export const SecretSet = strict({ set: z.literal(true) }).strict();
/** An MCP `env` value or header: the value itself (stored outside the database), or SecretSet to keep it. */
const SecretValue = z.union([z.string(), SecretSet]);
/** An MCP server as the ecosystem's `mcpServers` JSON has it; `secret` is what an `env` value or header may be. */
const mcpServer = <S extends z.ZodType>(secret: S) =>
  strict({
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), secret).optional(),
    url: z.string().url().optional(),
    headers: z.record(z.string(), secret).optional(),
    network: NetworkPolicy.optional(),
  });
export const AgentProfileInput = strict({
  name: Name,
  model: strict({
    provider: z.enum(['chat-completions', 'anthropic']),
    baseURL: z.string().url(),
    model: z.string().min(1),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional(),
    /** AGENTS: stream replies (default true); idle timeout per model call; reply length cap. */
    stream: z.boolean().optional(),
    timeout_s: z.number().positive().max(3600).optional(),
    max_tokens: z.number().int().positive().max(1_000_000).optional(),
  }),
  /** AGENTS: compaction budget in estimated tokens (~4 chars each); default 24,000. */
  context_budget_tokens: z.number().int().min(200).max(10_000_000).optional(),
  /** The runaway budget of each run: model rounds (default 200) and rows (default 2,000); reached, the run ends. */
  max_rounds: z.number().int().min(1).max(100_000).optional(),
  max_rows: z.number().int().min(1).max(1_000_000).optional(),
  instructions: z.string().optional(),
  mode: Mode,
  /** Any JSON list, checked by the rule language's validator: each error is reported at its rule and key. */
  approval_rules: approvalRules('approval_rules are invalid').optional(),
  lifecycle_hooks: LifecycleHooksInput.optional(),
  tools: z.array(z.string().min(1)).optional(),
  workspace: z.string().optional(),
  /** A connected client for one project (its runs start when the client calls a tool). */
  external: strict({ client: z.enum(['claude-code', 'codex', 'gemini', 'opencode']), project: z.string().min(1).max(4096) }).optional(),
  /** An ACP agent NEXUS starts in its sandbox and speaks the Agent Client Protocol to (docs/acp-agents.md). */
  acp: z
    .strictObject({
      command: z.string().min(1).max(4096),
      args: z.array(z.string().max(4096)).max(64).optional(),
      env: z.record(EnvName, z.string().max(8192)).optional(),
    })
    .optional(),
  mcpServers: z.record(z.string(), mcpServer(SecretValue)).optional(),
  /** false turns the OS sandbox off for this agent: its commands see and may change everything the user may. */
  sandbox: z.boolean().optional(),
  network: NetworkPolicy.optional(),
  env_passthrough: z.array(EnvName).max(64).optional(),
});
export const AgentView = AgentProfileInput.extend({
  approval_rules: z.array(ApprovalRuleView).optional(),
  lifecycle_hooks: LifecycleHooksView.optional(),
  /** Secrets are never listed: each `env` value and header reads { "set": true }. */
  mcpServers: z.record(z.string(), mcpServer(SecretSet)).optional(),
  status: z.enum(['active', 'removed']),
  created_at: z.string(),
  updated_at: z.string(),
});
