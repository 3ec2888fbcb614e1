// docs/orchestration-gate.md against shared/orchestration: the six codes in gate order with their setting,
// retryable flag and a fixing command that parses; the settings with their defaults and limits; the example
// sentence and structuredContent; the hold codes.
import { describe, expect, it } from 'vitest';
import { ORCHESTRATION_CODES, RETRYABLE, SETTING_FOR, HOLD_CODES } from '../../shared/orchestration/codes.js';
import { denialSentence } from '../../shared/orchestration/sentences.js';
import { decideHop, denialResult } from '../../shared/orchestration/gate.js';
import { heldResult, refusedResult } from '../../shared/orchestration/holds.js';
import { SETTABLE_KEYS } from '../../shared/orchestration/settings.js';
import { validateSetting } from '../../shared/orchestration/setting-values.js';
import { DEFAULT_SETTINGS } from '../../shared/types.js';
import { bodyRows, fences, readDoc, sections, unquote } from '../support/docs-markdown.js';
import { cliCommands } from '../support/docs-cli-source.js';

const page = readDoc('orchestration-gate.md');
const section = (title: string) => sections(page, 2).find((s) => s.title.startsWith(title))!.body;

describe('docs/orchestration-gate.md', () => {
  const rows = bodyRows(section('The six denials'));
  it('the six codes, in gate order, with their setting and retryable flag', () => {
    expect(rows.map((r) => unquote(r[1]))).toEqual([...ORCHESTRATION_CODES]);
    for (const [n, code, , setting, retryable] of rows) {
      const c = unquote(code) as (typeof ORCHESTRATION_CODES)[number];
      expect(Number(n)).toBe(ORCHESTRATION_CODES.indexOf(c) + 1);
      expect(unquote(setting), c).toBe(SETTING_FOR[c]);
      expect(retryable, c).toBe(RETRYABLE[c] ? 'yes' : 'no');
    }
  });
  it('each fixing command is a real nexus command, and a settings change it shows validates', async () => {
    const commands = await cliCommands();
    for (const r of rows) {
      const argv = unquote(r[5]).split(' ');
      expect(argv[0]).toBe('nexus');
      expect(Object.keys(commands), r[5]).toContain(argv[1]);
      if (argv[1] === 'settings') {
        expect(argv[2]).toBe('set');
        expect(validateSetting(argv[3], argv[4]), r[5]).toMatchObject({ ok: true });
        expect(SETTING_FOR[unquote(r[1]) as keyof typeof SETTING_FOR]).toBe(argv[3]);
      }
    }
  });
  it('the settings table: every key, its default, and its limits as validateSetting enforces them', () => {
    const settings = bodyRows(section('Settings'));
    expect(settings.map((r) => unquote(r[0])).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    for (const [k, def, values] of settings) {
      const key = unquote(k) as keyof typeof DEFAULT_SETTINGS;
      const d = DEFAULT_SETTINGS[key];
      expect(Array.isArray(d) ? (d.length ? d.join(',') : 'empty') : `\`${String(d)}\``, key).toBe(def);
      const range = /^(\d+)–(\d+)/.exec(values);
      if (range) {
        const [lo, hi] = [Number(range[1]), Number(range[2])];
        expect(validateSetting(key, lo).ok && validateSetting(key, hi).ok, key).toBe(true);
        expect(validateSetting(key, lo - 1).ok || validateSetting(key, hi + 1).ok, key).toBe(false);
      }
      expect((SETTABLE_KEYS as readonly string[]).includes(key)).toBe(key !== 'orchestration.stopAll');
    }
  });
  it('the example sentence and structuredContent are what the gate answers', () => {
    const settings = { ...DEFAULT_SETTINGS, 'orchestration.enabled': true, 'orchestration.allowlist': ['a', 'b'] };
    const d = decideHop(settings, { entitled: true, status: 'valid' }, { chain_id: 'chain_…', hop: 3, depth: 4, agents: 3, orchestrators: ['a', 'b'] });
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    const r = denialResult(d.denial);
    const text = section('What a denied caller gets').replace(/\s*\n\s*/g, ' ');
    expect(text).toContain(`*${denialSentence('chain_depth_exceeded', { depth: 4, maxDepth: 3 })}*`);
    expect(JSON.parse(fences(section('What a denied caller gets'))[0].body)).toEqual(r.structuredContent);
  });
  it('hop_held and hop_refused, with the fields they carry', () => {
    const holds = bodyRows(section('Per-hop approval'));
    expect(holds.map((r) => unquote(r[0]))).toEqual([...HOLD_CODES]);
    const f = { agent: 'a', action: 'bash', target: 'ls', hop: 2, chain_id: 'c', request_id: 'q' };
    const held = heldResult(f).structuredContent!;
    for (const k of Object.keys(held)) expect(holds[0][2]).toContain(k);
    expect(holds[0][2]).toContain(`"${held.reason}"`);
    expect(holds[0][2]).toContain(`"${held.setting}"`);
    expect(holds[1][2]).toContain(`"${refusedResult(f).structuredContent!.reason}"`);
  });
});
