// docs/settings.md against the settings schema (shared/orchestration): every settable key is a row, each row's
// default is DEFAULT_SETTINGS', and each range's bounds are what validateSetting accepts and refuses.
import { describe, expect, it } from 'vitest';
import { SETTABLE_KEYS } from '../../shared/orchestration/settings.js';
import { validateSetting } from '../../shared/orchestration/setting-values.js';
import { DEFAULT_SETTINGS } from '../../shared/types.js';
import { bodyRows, readDoc, unquote } from '../support/docs-markdown.js';

const page = readDoc('settings.md');
const rows = bodyRows(page).filter((r) => /^`[a-z]+\.[A-Za-z]+`$/.test(r[0]));
const byKey = new Map(rows.map((r) => [unquote(r[0]), r]));

describe('docs/settings.md', () => {
  it('has a row for exactly the settable keys', () => {
    expect([...byKey.keys()].sort()).toEqual([...SETTABLE_KEYS].sort());
  });

  it.each([...SETTABLE_KEYS])('%s: the default is the code’s', (key) => {
    const d = DEFAULT_SETTINGS[key];
    const shown = byKey.get(key)![1];
    expect(shown).toBe(Array.isArray(d) && d.length === 0 ? 'empty' : `\`${String(d)}\``);
  });

  it.each([...SETTABLE_KEYS])('%s: a range’s bounds are accepted and one past each is refused', (key) => {
    const m = /^(\d+)–(\d+)$/.exec(byKey.get(key)![2]);
    if (!m) return;
    const [lo, hi] = [Number(m[1]), Number(m[2])];
    expect([validateSetting(key, lo).ok, validateSetting(key, hi).ok]).toEqual([true, true]);
    expect([validateSetting(key, lo - 1).ok, validateSetting(key, hi + 1).ok]).toEqual([false, false]);
  });
});
