// Per-key schemas of the settings a person may change (DESIGN §5 `settings set`). Values arrive as JSON from
// the window or as text from the CLI, so booleans and integers are accepted in either form. Pure.
import { z } from 'zod';
import { DEFAULT_SETTINGS, type Settings } from '../types.js';
import { isSettableKey, SETTABLE_KEYS, type SettableKey } from './settings.js';

export type SettingCheck = { ok: true; value: Settings[SettableKey] } | { ok: false; message: string };

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const describe = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

const BOOL_WORDS: Record<string, boolean> = { true: true, on: true, yes: true, '1': true, false: false, off: false, no: false, '0': false };

/** true/false, or a word for one (on/off, yes/no, 1/0) as the command line types it. */
const boolSetting = (key: string) =>
  z.union(
    [
      z.boolean(),
      z
        .string()
        .transform((s) => BOOL_WORDS[s.trim().toLowerCase()])
        .pipe(z.boolean()),
    ],
    {
      error: (iss) => `${key} must be true or false (got ${describe(iss.input)}).`,
    },
  );

/** A whole number in [min, max], or its decimal text. */
const intSetting = (key: string, min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\s*-?\d+\s*$/)
          .transform(Number),
      ],
      { error: (iss) => `${key} must be a whole number (got ${describe(iss.input)}).` },
    )
    .refine(Number.isInteger, { error: (iss) => `${key} must be a whole number (got ${describe(iss.input)}).`, abort: true })
    .refine((n) => n >= min && n <= max, { error: (iss) => `${key} must be between ${min} and ${max} (got ${String(iss.input)}).` });

const agentName = z.unknown().refine((it) => typeof it === 'string' && it.length > 0 && it.length <= 64 && NAME_RE.test(it), {
  error: (iss) => `orchestration.allowlist: ${describe(iss.input)} is not an agent name (letters, digits, _ . -, starting with a letter or digit, at most 64).`,
});

/** A list of agent names, or their comma-separated text; a name given twice counts once. */
const allowlistSetting = z
  .union([z.array(z.unknown()), z.string().transform((s) => (s.trim() === '' ? [] : s.split(',').map((x) => x.trim())))], {
    error: (iss) => `orchestration.allowlist must be a list of agent names (comma-separated on the command line); got ${describe(iss.input)}.`,
  })
  .pipe(z.array(agentName).max(1000, 'orchestration.allowlist may name at most 1000 agents.'))
  .transform((names) => [...new Set(names as string[])]);

/** The schema of each settable key's value. */
export const SETTING_VALUES = {
  'orchestration.enabled': boolSetting('orchestration.enabled'),
  'orchestration.perHopApproval': boolSetting('orchestration.perHopApproval'),
  'orchestration.maxDepth': intSetting('orchestration.maxDepth', 1, 100),
  'orchestration.maxAgents': intSetting('orchestration.maxAgents', 1, 1000),
  'approval.stopHookCap': intSetting('approval.stopHookCap', 0, 100),
  'delegation.maxRefusals': intSetting('delegation.maxRefusals', 1, 100),
  'clients.idleMinutes': intSetting('clients.idleMinutes', 1, 10_080),
  'orchestration.allowlist': allowlistSetting,
} satisfies { [K in SettableKey]: z.ZodType<Settings[K], unknown> };

export function validateSetting(key: string, value: unknown): SettingCheck {
  if (!isSettableKey(key)) {
    return { ok: false, message: `Unknown setting ${JSON.stringify(key)}; the settable keys are ${SETTABLE_KEYS.join(', ')}.` };
  }
  const r = SETTING_VALUES[key].safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: r.error.issues[0].message };
}

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
