// Runs and their rows as the API shows them (runsList, runsShow, runsRows, runsEvents).
import { z } from 'zod';
import { strict } from './contract.js';
import { Id, Mode, Origin, RowState, RunStatus, ToolResult } from './common.js';
import { ApprovalRuleView } from './approval.js';

export const RowView = strict({
  id: Id,
  run_id: Id,
  origin: Origin,
  tool: z.string(),
  /** The wire name the call used, when it differs from the resolved tool. */
  wire_tool: z.string().optional(),
  runner: z.string().nullable().optional(),
  input: z.unknown(),
  state: RowState,
  round: z.number().int().nullable().optional(),
  granted_by: z.enum(['mode', 'rule', 'origin', 'person', 'trust']).nullable().optional(),
  approved_by: z.string().nullable().optional(),
  error: strict({ code: z.string(), detail: z.string() }).nullable().optional(),
  result: ToolResult.nullable().optional(),
  expires_at: z.string().nullable().optional(),
  /** What a failure or timeout does: continue the run, or fail it. */
  on_failure: z.enum(['continue', 'fail_run']).optional(),
  /** Who a parked row waits on (`executor:<agent>`), or null: the person's door. */
  addressee: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable().optional(),
  ended_at: z.string().nullable().optional(),
});
export const RunSummary = strict({
  id: Id,
  agent: z.string().nullable(),
  status: RunStatus,
  mode: Mode,
  prompt: z.string().nullable().optional(),
  final_answer: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  chain_id: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  pending: z.number().int().optional(),
  /** A connected client's session (Claude Code, Codex): the calls came through its tool hook. */
  client: z
    .object({
      name: z.string(),
      session_id: z.string(),
      /** The session's working folder (its cwd at the first call). */
      folder: z.string().optional(),
      /** The session's newest call (the tool as NEXUS judged it), or null before any. */
      last_call: strict({ tool: z.string(), at: z.string() }).nullable().optional(),
    })
    .optional(),
  /** Pending orchestration holds this run waits on (its own, or inside the delegation it waits for). */
  waiting_on: z
    .array(strict({ request_id: z.string(), hop: z.number().int(), agent: z.string(), tool: z.string(), target: z.string(), expires_at: z.string() }))
    .optional(),
});
export const RunEvent = strict({ type: z.string(), at: z.string(), data: z.unknown() });
export const RunDetail = RunSummary.extend({
  rules: z.array(ApprovalRuleView),
  /** The runaway budget: what the run has used and its limits (its agent's max_rounds / max_rows, or the defaults). */
  budget: strict({ rounds: z.number().int(), rows: z.number().int(), max_rounds: z.number().int(), max_rows: z.number().int() }).optional(),
  workspace: z.string(),
  /** The first page of the run's rows, in order (runsRows reads the next ones from rows_next_cursor). */
  rows: z.array(RowView),
  /** Where the next page of rows starts (runsRows), or null: `rows` holds every row. */
  rows_next_cursor: z.string().nullable().optional(),
  messages: z.array(z.unknown()).optional(),
  /** The first page of the run's timeline (runsEvents reads the rest from events_next_cursor). */
  events: z.array(RunEvent).optional(),
  events_next_cursor: z.string().nullable().optional(),
});
/** How many rows and events runsShow carries when the caller does not say. */
export const RUN_DETAIL_PAGE = 200;
