import { describe, expect, it } from 'vitest';
import { SETTABLE_KEYS } from './settings.js';
import { coerceStored, validateSetting } from './setting-values.js';
import { canonicalJson, hopFingerprintText } from './canonical.js';

describe('settings set: per-key validation (DESIGN §5 keys)', () => {
  it('the settable keys are exactly the documented ones (Stop all is not one: stop-all / resume change it)', () => {
    expect([...SETTABLE_KEYS]).toEqual([
      'orchestration.enabled',
      'orchestration.maxDepth',
      'orchestration.maxAgents',
      'orchestration.allowlist',
      'orchestration.perHopApproval',
      'approval.stopHookCap',
      'delegation.maxRefusals',
      'clients.idleMinutes',
    ]);
    expect(validateSetting('orchestration.stopAll', true).ok).toBe(false);
    expect(validateSetting('nope', 1)).toMatchObject({ ok: false, message: expect.stringMatching(/Unknown setting/) });
  });
  it('booleans accept true/false and the CLI words', () => {
    expect(validateSetting('orchestration.enabled', true)).toEqual({ ok: true, value: true });
    expect(validateSetting('orchestration.enabled', 'on')).toEqual({ ok: true, value: true });
    expect(validateSetting('orchestration.perHopApproval', 'false')).toEqual({ ok: true, value: false });
    expect(validateSetting('orchestration.enabled', 'maybe').ok).toBe(false);
    expect(validateSetting('orchestration.enabled', 1).ok).toBe(false);
  });
  it('limits are whole numbers in range', () => {
    expect(validateSetting('orchestration.maxDepth', '5')).toEqual({ ok: true, value: 5 });
    expect(validateSetting('orchestration.maxAgents', 10)).toEqual({ ok: true, value: 10 });
    expect(validateSetting('orchestration.maxDepth', 0).ok).toBe(false);
    expect(validateSetting('orchestration.maxDepth', 2.5).ok).toBe(false);
    expect(validateSetting('orchestration.maxDepth', 'three').ok).toBe(false);
    expect(validateSetting('delegation.maxRefusals', 0).ok).toBe(false);
    expect(validateSetting('approval.stopHookCap', 0)).toEqual({ ok: true, value: 0 });
  });
  it('the allowlist is agent names, comma-separated on the command line, deduplicated', () => {
    expect(validateSetting('orchestration.allowlist', 'lead, mid,lead')).toEqual({ ok: true, value: ['lead', 'mid'] });
    expect(validateSetting('orchestration.allowlist', '')).toEqual({ ok: true, value: [] });
    expect(validateSetting('orchestration.allowlist', ['a.b', 'c_d'])).toEqual({ ok: true, value: ['a.b', 'c_d'] });
    expect(validateSetting('orchestration.allowlist', 'good,bad name').ok).toBe(false);
    expect(validateSetting('orchestration.allowlist', 42).ok).toBe(false);
  });
  it('a damaged stored value falls back to the closed position (Stop all: stopped)', () => {
    expect(coerceStored('orchestration.enabled', '"garbage"')).toBe(false);
    expect(coerceStored('orchestration.allowlist', '{')).toEqual([]);
    expect(coerceStored('orchestration.stopAll', 'nonsense')).toBe(true);
    expect(coerceStored('orchestration.stopAll', undefined)).toBe(false);
  });
});

describe('canonical JSON (the identical retry: same chain, agent, resolved tool and canonical input)', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"x":2,"y":1}]},"b":1}');
  });
  it('key order does not change the fingerprint; a changed input does', () => {
    expect(hopFingerprintText('c', 'a', 'bash', { command: 'ls', timeout: 5 })).toBe(hopFingerprintText('c', 'a', 'bash', { timeout: 5, command: 'ls' }));
    expect(hopFingerprintText('c', 'a', 'bash', { command: 'ls' })).not.toBe(hopFingerprintText('c', 'a', 'bash', { command: 'ls -l' }));
    expect(hopFingerprintText('c', 'a', 'bash', { command: 'ls' })).not.toBe(hopFingerprintText('c', 'b', 'bash', { command: 'ls' }));
  });
});
