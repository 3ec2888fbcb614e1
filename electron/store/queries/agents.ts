// Agent profiles. The profile JSON is stored as saved (after validation); mode, rules and hooks also have
// their own columns so runs can freeze them without re-reading the whole profile.
import { stmt, type Db } from '../db.js';
import type { AgentProfile } from '../../../shared/types.js';
import { isoOr, parseJson, toJson } from './util.js';

interface AgentRecord {
  name: string;
  profile_json: string;
  mode: AgentProfile['mode'];
  rules_json: string;
  hooks_json: string;
  workspace: string | null;
  key_ref: string | null;
  status: 'active' | 'removed';
  credentials_fenced: number;
  executor_revoked: number;
  created_at: number;
  updated_at: number;
}

export interface AgentRow extends AgentProfile {
  status: 'active' | 'removed';
  credentials_fenced: boolean;
  executor_revoked: boolean;
  created_at: string;
  updated_at: string;
}

const toAgent = (r: AgentRecord): AgentRow => ({
  ...parseJson<AgentProfile>(r.profile_json, {} as AgentProfile),
  status: r.status,
  credentials_fenced: r.credentials_fenced === 1,
  executor_revoked: r.executor_revoked === 1,
  created_at: isoOr(r.created_at),
  updated_at: isoOr(r.updated_at),
});

/** Create or replace a profile. Saving a removed agent's name again makes a fresh, active profile. */
export function upsertAgent(db: Db, a: { profile: AgentProfile; now: number }): void {
  const p = a.profile;
  stmt(
    db,
    `INSERT INTO agents (name, profile_json, mode, rules_json, hooks_json, workspace, key_ref, status, credentials_fenced, executor_revoked, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'active', 0, 0, ?, ?)
     ON CONFLICT(name) DO UPDATE SET profile_json = excluded.profile_json, mode = excluded.mode, rules_json = excluded.rules_json,
       hooks_json = excluded.hooks_json, workspace = excluded.workspace, key_ref = excluded.key_ref, status = 'active',
       credentials_fenced = 0, executor_revoked = 0, updated_at = excluded.updated_at`,
  ).run(
    p.name,
    toJson(p),
    p.mode,
    toJson(p.approval_rules ?? []),
    toJson(p.lifecycle_hooks ?? {}),
    p.workspace ?? null,
    p.model.apiKeyEnv ?? null,
    a.now,
    a.now,
  );
}

export function getAgent(db: Db, name: string): AgentRow | null {
  const r = stmt<AgentRecord>(db, 'SELECT * FROM agents WHERE name = ?').get(name);
  return r ? toAgent(r) : null;
}

export function listAgents(db: Db): AgentRow[] {
  return stmt<AgentRecord>(db, 'SELECT * FROM agents ORDER BY name').all().map(toAgent);
}

/** Mark removed and fence its credentials: the key reference is cleared and reads of it refuse. */
export function markAgentRemoved(db: Db, a: { name: string; now: number }): boolean {
  return (
    stmt(db, "UPDATE agents SET status = 'removed', credentials_fenced = 1, key_ref = NULL, updated_at = ? WHERE name = ? AND status = 'active'").run(
      a.now,
      a.name,
    ).changes === 1
  );
}

export function setExecutorRevoked(db: Db, a: { name: string; revoked: boolean; now: number }): boolean {
  return stmt(db, 'UPDATE agents SET executor_revoked = ?, updated_at = ? WHERE name = ?').run(a.revoked ? 1 : 0, a.now, a.name).changes === 1;
}

/** The agent's key reference (an env var name), or null when absent or fenced. Never the key itself. */
export function getAgentKeyRef(db: Db, name: string): { fenced: boolean; key_ref: string | null } | null {
  const r = stmt<{ key_ref: string | null; credentials_fenced: number }>(db, 'SELECT key_ref, credentials_fenced FROM agents WHERE name = ?').get(name);
  return r ? { fenced: r.credentials_fenced === 1, key_ref: r.credentials_fenced === 1 ? null : r.key_ref } : null;
}

/** Rewrite only a profile's JSON (status and timestamps untouched): the start-up move of secrets out of it. */
export function setAgentProfileJson(db: Db, name: string, profile: AgentProfile): void {
  stmt(db, 'UPDATE agents SET profile_json = ? WHERE name = ?').run(toJson(profile), name);
}
