// The desk holds the policy (DESIGN §8): agent profiles (`agent:<name>`) and orchestration settings, the
// allowlist among them (`settings`). A policy member publishes this machine's with `nexus desk policy push`;
// every joined kernel writes the desk's into its own store through the same functions `nexus agents add` and
// `nexus settings set` use, so the hot path stays local and synchronous. A value that does not validate is
// refused whole and logged: nothing of it is applied. Stop all is its own key (client.ts: the heartbeat).
import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import type { Kernel } from '../kernel/kernel.js';
import type { Governance } from '../governance/service.js';
import { AgentProfileInput } from '../../shared/api/agents.js';
import { SETTABLE_KEYS, isSettableKey } from '../../shared/orchestration/settings.js';
import { validateSetting } from '../../shared/orchestration/setting-values.js';
import { errorMessage } from '../../shared/errors.js';
import { log } from '../log.js';
import type { PolicyEntry } from './pg/queries.js';

/** How a profile is saved here: the agents layer's saveAgent (app.ts hands it in; the desk sits below agents). */
export type SaveProfile = (profile: z.output<typeof AgentProfileInput>) => void;

export const AGENT_KEY = 'agent:';
export const SETTINGS_KEY = 'settings';

/** What this machine would publish: its active profiles (not hook-connected clients: those are this machine's
 *  own sessions) and every settable setting. */
export function localPolicy(kernel: Kernel, gov: Governance | null): Array<{ key: string; value: unknown }> {
  const out: Array<{ key: string; value: unknown }> = [];
  for (const row of kernel.records.agents()) {
    if (row.status !== 'active' || row.external) continue;
    const { status: _s, credentials_fenced: _c, executor_revoked: _e, created_at: _ca, updated_at: _ua, ...profile } = row;
    out.push({ key: `${AGENT_KEY}${row.name}`, value: profile });
  }
  if (gov) {
    const s = gov.settings();
    out.push({ key: SETTINGS_KEY, value: Object.fromEntries(SETTABLE_KEYS.map((k) => [k, s[k]])) });
  }
  return out;
}

/** What the desk holds now: the agents and the settings a local edit may not change while joined. */
export interface HeldPolicy {
  agents: Set<string>;
  settings: Set<string>;
}

export type PolicyOutcome = { key: string; applied: true } | { key: string; applied: false; reason: string };

/** Apply one desk entry; throws nothing. The caller skips entries it already applied (same updated_at). */
export function applyPolicyEntry(save: SaveProfile | null, gov: Governance | null, e: PolicyEntry): PolicyOutcome {
  try {
    if (e.key.startsWith(AGENT_KEY)) applyAgent(save, e);
    else if (e.key === SETTINGS_KEY) applySettings(gov, e.value);
    else return refused(e, 'this NEXUS does not know that policy key');
    return { key: e.key, applied: true };
  } catch (err) {
    return refused(e, errorMessage(err));
  }
}

function refused(e: PolicyEntry, reason: string): PolicyOutcome {
  log.warn(`the desk's policy ${e.key} (set by ${e.updated_by}) was not applied here: ${reason}`);
  return { key: e.key, applied: false, reason };
}

function applyAgent(save: SaveProfile | null, e: PolicyEntry): void {
  if (!save) throw new Error('agent profiles are not built into this NEXUS');
  const p = AgentProfileInput.safeParse(e.value);
  if (!p.success) throw new Error(p.error.issues.map((i) => `${i.path.join('.') || 'profile'}: ${i.message}`).join('; '));
  if (p.data.name !== e.key.slice(AGENT_KEY.length)) throw new Error(`the profile is named ${p.data.name}, not ${e.key.slice(AGENT_KEY.length)}`);
  if (p.data.workspace !== undefined && !isAbsolute(p.data.workspace)) throw new Error('workspace must be an absolute path');
  save(p.data); // saveAgent: validates rules, hooks and tools before it writes anything
}

/** Every key is validated before any is written: a settings value is applied whole or not at all. */
function applySettings(gov: Governance | null, value: unknown): void {
  if (!gov) throw new Error('orchestration governance is not built into this NEXUS');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('settings must be an object of setting: value');
  const checked: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(value)) {
    const c = validateSetting(k, v);
    if (!c.ok) throw new Error(`${k}: ${c.message}`);
    checked.push([k, c.value]);
  }
  const now = new Map<string, unknown>(Object.entries(gov.settings()));
  for (const [k, v] of checked) if (JSON.stringify(now.get(k)) !== JSON.stringify(v)) gov.setSetting(k, v);
}

/** The names and keys the desk's entries hold (a refused value still holds its name: the desk is the authority). */
export function heldBy(entries: PolicyEntry[]): HeldPolicy {
  const held: HeldPolicy = { agents: new Set(), settings: new Set() };
  for (const e of entries) {
    if (e.key.startsWith(AGENT_KEY)) held.agents.add(e.key.slice(AGENT_KEY.length));
    else if (e.key === SETTINGS_KEY && typeof e.value === 'object' && e.value !== null)
      for (const k of Object.keys(e.value)) if (isSettableKey(k)) held.settings.add(k);
  }
  return held;
}

export const HELD_AGENT = (name: string) =>
  `The desk holds agent ${name}'s policy: change it with nexus desk policy push from a policy member (a role in nexus_policy), or leave the desk.`;
export const HELD_SETTING = (key: string) =>
  `The desk holds the setting ${key}: change it with nexus desk policy push from a policy member (a role in nexus_policy), or leave the desk.`;
