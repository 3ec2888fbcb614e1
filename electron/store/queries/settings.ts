// Settings in the store (migration 003). The gate reads them at each hop as the store holds them at that
// moment, so a person's change takes hold on the very next hop with no restart (seed 003: "not cached"): the read
// is a watched read (store/db.ts), answered from memory only while SQLite says nothing can have changed.
import { stmt, tx, watchedRead, wroteWatched, type Db } from '../db.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/types.js';
import type { SettableKey } from '../../../shared/orchestration/settings.js';
import { coerceStored, validateSetting } from '../../../shared/orchestration/setting-values.js';
import { ApiFailure } from '../../../shared/errors.js';
import { getAgent } from './agents.js';

const KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[];

// Parsing is memoized by the stored TEXT (key + value_json), never the answer: every read still goes to the
// store, so a changed row is seen on the very next read; only re-parsing identical text is skipped.
const parsed = new Map<string, unknown>();
function parse<K extends keyof Settings>(key: K, raw: string | undefined): Settings[K] {
  if (raw === undefined) return DEFAULT_SETTINGS[key];
  const memo = `${key}\u0000${raw}`;
  if (parsed.has(memo)) return parsed.get(memo) as Settings[K];
  const v = coerceStored(key, raw);
  if (parsed.size > 256) parsed.clear();
  parsed.set(memo, Object.freeze(v));
  return v;
}

/** All settings as the store holds them now, defaults for keys never set (frozen: it may be shared). */
export const readSettings: (db: Db) => Settings = watchedRead(queryAll);

function queryAll(db: Db): Settings {
  const rows = stmt<{ key: string; value_json: string }>(db, 'SELECT key, value_json FROM settings').all();
  const raw: Record<string, string> = {};
  for (const r of rows) raw[r.key] = r.value_json;
  const out = {} as Record<string, unknown>;
  for (const k of KEYS) out[k] = parse(k, raw[k]);
  return Object.freeze(out) as unknown as Settings;
}

/** One setting, fresh from the store. */
export function readSetting<K extends keyof Settings>(db: Db, key: K): Settings[K] {
  const r = stmt<{ value_json: string }>(db, 'SELECT value_json FROM settings WHERE key = ?').get(key);
  return parse(key, r?.value_json);
}

/** Validate and store one settable key; throws ApiFailure('invalid_setting') with a clear message. */
export function writeSetting(db: Db, key: string, value: unknown, now: number): Settings {
  const check = validateSetting(key, value);
  if (!check.ok) throw new ApiFailure('invalid_setting', check.message, [{ path: 'value', message: check.message }]);
  return tx(db, () => {
    put(db, key as SettableKey, check.value, now);
    return readSettings(db);
  });
}

/** Stop all is not a settable key (only stopAll/resume change it). */
export function writeStopAll(db: Db, on: boolean, now: number): void {
  put(db, 'orchestration.stopAll', on, now);
}

function put(db: Db, key: keyof Settings, value: unknown, now: number): void {
  stmt(
    db,
    'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
  ).run(key, JSON.stringify(value), now);
  wroteWatched(db);
}

export interface SettingWarning {
  key: string;
  message: string;
}

/**
 * What a stored value will not do yet: an allowlisted name that is no active agent is kept (the agent may be
 * added later) but allows nobody until then.
 */
export function settingWarnings(db: Db, key: string, s: Settings): SettingWarning[] {
  if (key !== 'orchestration.allowlist') return [];
  return s['orchestration.allowlist']
    .filter((name) => getAgent(db, name)?.status !== 'active')
    .map((name) => ({
      key,
      message: `no agent named ${JSON.stringify(name)} exists yet; it is allowlisted anyway and takes effect once such an agent is added.`,
    }));
}
