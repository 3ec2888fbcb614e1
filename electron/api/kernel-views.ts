// How the kernel's records read on the wire (shared/api/runs.ts, inbox.ts and agents.ts): rows, run summaries, inbox cards and
// agent profiles, with secrets listed by where they are, never by value.
import type { z } from 'zod';
import type { AgentView } from '../../shared/api/agents.js';
import type { InboxFilter, InboxItem } from '../../shared/api/inbox.js';
import type { TrustGrantView } from '../../shared/api/kernel.js';
import type { RowView, RunSummary } from '../../shared/api/runs.js';
import { scopeText, type TrustGrant } from '../../shared/trust.js';
import { inboxWire, type InboxEntry } from '../store/queries/inbox.js';
import type { InboxFilter as InboxQueryFilter } from '../store/queries/inbox-pages.js';
import type { AgentRow } from '../store/queries/agents.js';
import type { Row, Run } from '../kernel/types.js';

export const rowView = (r: Row): z.infer<typeof RowView> => ({
  id: r.id,
  run_id: r.run_id,
  origin: r.origin,
  tool: r.tool,
  ...(r.wire_tool !== r.tool ? { wire_tool: r.wire_tool } : {}),
  runner: r.runner,
  input: r.input,
  state: r.state,
  round: r.round,
  granted_by: r.granted_by,
  approved_by: r.approved_by,
  error: r.error,
  result: r.result,
  expires_at: r.expires_at,
  on_failure: r.on_failure,
  addressee: r.addressee,
  created_at: r.created_at,
  updated_at: r.updated_at,
  started_at: r.started_at,
  ended_at: r.ended_at,
});

/** A client session's newest call, as the store gives it (ms), for the summary. */
export type LastCall = { tool: string; created_at: number } | null;

export const runSummary = (r: Run, pending?: number, lastCall?: (run_id: string) => LastCall): z.infer<typeof RunSummary> => ({
  id: r.id,
  agent: r.agent,
  status: r.status,
  mode: r.mode,
  prompt: r.prompt,
  final_answer: r.final_answer,
  error: r.error,
  chain_id: r.chain_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
  ...(pending !== undefined ? { pending } : {}),
  ...(r.created_by?.startsWith('client:') ? { client: { ...clientOf(r.created_by), folder: r.workspace, ...lastCallOf(r.id, lastCall) } } : {}),
});

const lastCallOf = (run_id: string, read?: (run_id: string) => LastCall) => {
  if (!read) return {};
  const c = read(run_id);
  return { last_call: c ? { tool: c.tool, at: new Date(c.created_at).toISOString() } : null };
};

/** `client:<name>:<session id>` → the client and its session. */
const clientOf = (createdBy: string) => {
  const [name = '', ...rest] = createdBy.slice('client:'.length).split(':');
  return { name, session_id: rest.join(':') };
};

/** A run waiting on an orchestration hold says which (request id, hop): it does not read as done. */
export const withWaiting = (s: z.infer<typeof RunSummary>, waiting: Map<string, z.infer<typeof RunSummary>['waiting_on'] & object>) => {
  const w = waiting.get(s.id);
  return w?.length ? { ...s, waiting_on: w } : s;
};

export const inboxView = (i: InboxEntry): z.infer<typeof InboxItem> => inboxWire(i);

/** A filter as the store reads it: only the fields given. */
export const filterOf = (f: z.infer<typeof InboxFilter>): InboxQueryFilter => {
  const out: InboxQueryFilter = {};
  if (f.agent !== undefined) out.agent = f.agent;
  if (f.kind !== undefined) out.kind = f.kind;
  if (f.run_id !== undefined) out.run_id = f.run_id;
  if (f.chain_id !== undefined) out.chain_id = f.chain_id;
  if (f.text !== undefined && f.text.trim()) out.text = f.text.trim();
  return out;
};

/** A stored secret is listed as where it was, never as its value: every `env` value and header reads
 *  { set: true }, also one that somehow reached the store as text. */
const listedSecrets = (m: Record<string, unknown> | undefined) => (m ? Object.fromEntries(Object.keys(m).map((k) => [k, { set: true as const }])) : undefined);

/** A profile as the API lists it: the stored profile with its status and times; the store's own flags stay in. */
export const agentView = (a: AgentRow): z.infer<typeof AgentView> => {
  const { status, created_at, updated_at, credentials_fenced: _fenced, executor_revoked: _revoked, mcpServers, ...profile } = a;
  const view: z.infer<typeof AgentView> = { ...profile, status, created_at, updated_at };
  if (mcpServers) {
    view.mcpServers = Object.fromEntries(
      Object.entries(mcpServers).map(([name, { env, headers, ...server }]) => {
        const listed: NonNullable<z.infer<typeof AgentView>['mcpServers']>[string] = { ...server };
        if (env) listed.env = listedSecrets(env);
        if (headers) listed.headers = listedSecrets(headers);
        return [name, listed];
      }),
    );
  }
  return view;
};

export const trustGrantView = (g: TrustGrant): z.infer<typeof TrustGrantView> => ({
  id: g.id,
  agent: g.agent,
  scope: g.scope,
  covers: scopeText(g.scope),
  granted_at: new Date(g.granted_at).toISOString(),
  by: g.by,
  ends: 'when NEXUS quits',
});
