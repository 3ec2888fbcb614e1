// Per-key validation of the settings a person may change (DESIGN §5 `settings set`). Values arrive as JSON
// from the window or as text from the CLI, so booleans and integers are accepted in either form. Pure.
import { DEFAULT_SETTINGS, type Settings } from '../types.js';

export const SETTABLE_KEYS = [
  'orchestration.enabled',
  'orchestration.maxDepth',
  'orchestration.maxAgents',
  'orchestration.allowlist',
  'orchestration.perHopApproval',
  'approval.stopHookCap',
  'delegation.maxRefusals',
] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

export type SettingCheck = { ok: true; value: Settings[SettableKey] } | { ok: false; message: string };

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const INT_RANGES: Partial<Record<SettableKey, [number, number]>> = {
  'orchestration.maxDepth': [1, 100],
  'orchestration.maxAgents': [1, 1000],
  'approval.stopHookCap': [0, 100],
  'delegation.maxRefusals': [1, 100],
};

export function isSettableKey(key: string): key is SettableKey {
  return (SETTABLE_KEYS as readonly string[]).includes(key);
}

export function validateSetting(key: string, value: unknown): SettingCheck {
  if (!isSettableKey(key)) {
    return { ok: false, message: `Unknown setting ${JSON.stringify(key)}; the settable keys are ${SETTABLE_KEYS.join(', ')}.` };
  }
  switch (key) {
    case 'orchestration.enabled':
    case 'orchestration.perHopApproval':
      return parseBool(key, value);
    case 'orchestration.allowlist':
      return parseAllowlist(value);
    default: {
      const [min, max] = INT_RANGES[key]!;
      return parseInt(key, value, min, max);
    }
  }
}

function parseBool(key: string, v: unknown): SettingCheck {
  if (typeof v === 'boolean') return { ok: true, value: v };
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'on', 'yes', '1'].includes(s)) return { ok: true, value: true };
    if (['false', 'off', 'no', '0'].includes(s)) return { ok: true, value: false };
  }
  return { ok: false, message: `${key} must be true or false (got ${describe(v)}).` };
}

function parseInt(key: string, v: unknown, min: number, max: number): SettingCheck {
  let n: number | null = null;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) n = Number(v.trim());
  if (n === null || !Number.isInteger(n)) return { ok: false, message: `${key} must be a whole number (got ${describe(v)}).` };
  if (n < min || n > max) return { ok: false, message: `${key} must be between ${min} and ${max} (got ${n}).` };
  return { ok: true, value: n };
}

function parseAllowlist(v: unknown): SettingCheck {
  let items: unknown[];
  if (Array.isArray(v)) items = v;
  else if (typeof v === 'string') items = v.trim() === '' ? [] : v.split(',').map((s) => s.trim());
  else return { ok: false, message: `orchestration.allowlist must be a list of agent names (comma-separated on the command line); got ${describe(v)}.` };
  if (items.length > 1000) return { ok: false, message: 'orchestration.allowlist may name at most 1000 agents.' };
  const out: string[] = [];
  for (const it of items) {
    if (typeof it !== 'string' || it.length === 0 || it.length > 64 || !NAME_RE.test(it)) {
      return { ok: false, message: `orchestration.allowlist: ${describe(it)} is not an agent name (letters, digits, _ . -, starting with a letter or digit, at most 64).` };
    }
    if (!out.includes(it)) out.push(it);
  }
  return { ok: true, value: out };
}

const describe = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/**
 * Parse a stored value back. A damaged row falls back to the default, which is the closed position for
 * every orchestration switch (off, empty allowlist) — except Stop all, whose closed position is "stopped".
 */
export function coerceStored<K extends keyof Settings>(key: K, raw: string | undefined): Settings[K] {
  if (raw === undefined) return DEFAULT_SETTINGS[key];
  const damaged = (key === 'orchestration.stopAll' ? true : DEFAULT_SETTINGS[key]) as Settings[K];
  try {
    const v = JSON.parse(raw) as unknown;
    if (key === 'orchestration.stopAll') return (typeof v === 'boolean' ? v : damaged) as Settings[K];
    const c = validateSetting(key, v);
    return (c.ok ? c.value : damaged) as Settings[K];
  } catch {
    return damaged;
  }
}
