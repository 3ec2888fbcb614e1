// Orchestration governance methods. Owned by the governance work (electron/governance).
import { z } from 'zod';
import { method, readMethod, strict } from './contract.js';
import { Id, OrchestrationCode, PAGE_MAX } from './common.js';
import { SETTABLE_KEYS } from '../orchestration/settings.js';
import { HOP_CAUSE_CODES, HOP_VERDICTS } from '../types.js';
import { didYouMean } from '../did-you-mean.js';

export const SettingsView = strict({
  'orchestration.enabled': z.boolean(),
  'orchestration.maxDepth': z.number().int(),
  'orchestration.maxAgents': z.number().int(),
  'orchestration.allowlist': z.array(z.string()),
  'orchestration.perHopApproval': z.boolean(),
  'orchestration.stopAll': z.boolean(),
  'approval.stopHookCap': z.number().int(),
  'delegation.maxRefusals': z.number().int(),
  'clients.idleMinutes': z.number().int(),
});
/** What a settings change answers: every setting, and what was stored but does not act yet. */
export const SettingsSetView = SettingsView.extend({ warnings: z.array(z.object({ key: z.string(), message: z.string() })).optional() });
/** The keys a person may set: the one list is shared/orchestration/settings.ts (its validation lives there). */
export const SettingKey = z.enum(SETTABLE_KEYS, {
  error: (iss) => {
    const near = typeof iss.input === 'string' ? didYouMean(iss.input, SETTABLE_KEYS) : null;
    return `unknown setting ${JSON.stringify(iss.input)}${near ? `; did you mean ${near}?` : ''}`;
  },
});
export const EntitlementView = strict({
  entitled: z.boolean(),
  entitlements: z.array(z.string()),
  subject: z.string().nullable(),
  expires_at: z.string().nullable(),
  status: z.enum(['absent', 'valid', 'expired', 'invalid']),
  message: z.string(),
  /** Where the stored token came from: the account service (refresh) or `nexus entitlements import FILE`. */
  source: z.enum(['account', 'import']).nullable(),
  /** When the account service last supplied the stored token (ISO); null for an imported file or none. */
  refreshed_at: z.string().nullable(),
  /** The account service link, configured at start by NEXUS_ACCOUNT_URL + NEXUS_ACCOUNT_TOKEN. */
  account: strict({
    configured: z.boolean(),
    /** The service's base address as shown to people (never the credential). */
    url: z.string().nullable(),
    /** Why the account settings in the environment cannot be used, when set but wrong. */
    problem: z.string().nullable(),
    last_refresh: strict({ at: z.string(), ok: z.boolean(), code: z.string().nullable(), message: z.string().nullable() }).nullable(),
  }),
});
export const ChainHop = strict({
  hop: z.number().int(),
  agent: z.string(),
  action: z.string(),
  target: z.string(),
  verdict: z.enum(HOP_VERDICTS),
  code: z.union([OrchestrationCode, z.enum(HOP_CAUSE_CODES)]).optional(),
  request_id: z.string().optional(),
  at: z.string(),
});
export const Chain = strict({ chain_id: z.string(), agents: z.array(z.string()), hops: z.array(ChainHop), last_active_at: z.string() });
export const Evidence = strict({
  command: z.string(),
  exit_code: z.number().int().nullable(),
  passed: z.boolean(),
  output: z.string(),
  duration_ms: z.number(),
  at: z.string(),
});
export const TaskView = strict({
  id: Id,
  status: z.enum(['open', 'completed', 'failed', 'canceled']),
  delegator: z.string(),
  recipient: z.string(),
  task: z.string(),
  acceptance_check: strict({ command: z.string(), timeout_s: z.number().optional() }),
  run_id: z.string().nullable(),
  chain_id: z.string().nullable(),
  refusals: z.number().int(),
  answer: z.string().nullable(),
  evidence: z.array(Evidence),
});

/** A pending orchestration hold a run waits on: its own hop, or a hop inside the delegation it waits for. */
export const WaitingOn = strict({
  request_id: z.string(),
  hop: z.number().int(),
  agent: z.string(),
  tool: z.string(),
  target: z.string(),
  expires_at: z.string(),
});
export const TaskListItem = strict({
  id: Id,
  delegator: z.string(),
  recipient: z.string(),
  task: z.string(),
  state: z.enum(['open', 'completed', 'failed', 'canceled']),
  refusals: z.number().int(),
  /** The exit code of the last acceptance check run (null: none ran yet, or it ended without a code). */
  last_check_exit_code: z.number().int().nullable(),
  run_id: z.string().nullable(),
  created_at: z.string(),
  waiting_on: z.array(WaitingOn),
});

export const orchestrationMethods = {
  settingsGet: readMethod(strict({}).default({}), SettingsView, 'All settings, read fresh from the store.'),
  settingsSet: method(
    strict({ key: SettingKey, value: z.unknown() }),
    SettingsSetView,
    'Change one setting (validated per key); `warnings` says what was stored but will not act yet (an allowlisted name that is no agent).',
  ),
  stopAll: method(strict({}).default({}), strict({ stopped_runs: z.number().int() }), 'Force-stop every run in flight and deny governed hops until Resume.'),
  resume: method(strict({}).default({}), SettingsView, 'Lift Stop all.'),
  entitlementsImport: method(strict({ token: z.string().min(1).max(65536) }), EntitlementView, 'Import an entitlement token (EdDSA JWT).'),
  entitlementsShow: readMethod(strict({}).default({}), EntitlementView, 'The entitlement state.'),
  entitlementsRefresh: method(
    strict({}).default({}),
    EntitlementView,
    'Take the entitlement from the account service now (GET {NEXUS_ACCOUNT_URL}/v1/entitlements), verified like an import; on failure the previous state is kept.',
  ),
  chainsList: readMethod(
    z
      .object({
        limit: z.number().int().min(1).max(PAGE_MAX).optional(),
        /** The chain_id of the last chain of the previous page: the page starts after it. */
        cursor: Id.optional(),
      })
      .default({}),
    z.array(Chain),
    'Recent chains, most recently active first (optionally a page: limit, and cursor = the last chain_id seen).',
  ),
  chainsClear: method(strict({}).default({}), strict({ cleared: z.number().int() }), 'Forget the Recent chains list. Stops nothing.'),
  tasksShow: readMethod(strict({ id: Id }), TaskView, 'A delegated task with its evidence.'),
  tasksList: readMethod(
    z
      .object({
        limit: z.number().int().min(1).max(1000).default(200),
        /** The id of the last task of the previous page: the page starts after it. */
        cursor: Id.optional(),
      })
      .default({ limit: 200 }),
    z.array(TaskListItem),
    "Delegated tasks, newest first: who delegated to whom, the state, refusals and the last check's exit code (a page: limit, and cursor = the last id seen).",
  ),
};
