import { describe, it, expect } from 'vitest';
import { CAUSE_WORDS, DENIAL_WORDS, denialWords, hopCodeWords, refusedByPerson } from './chain-text.js';
import { HOP_CAUSE_CODES, ORCHESTRATION_CODES } from '../../../../shared/types.js';

describe('Recent chains in words', () => {
  it('has plain words for each of the six denial codes', () => {
    expect(Object.keys(DENIAL_WORDS).sort()).toEqual([...ORCHESTRATION_CODES].sort());
    expect(denialWords('orchestration_not_entitled')).toBe('no nexus.orchestration entitlement');
    expect(denialWords('chain_depth_exceeded')).toBe('over Maximum chain depth');
    expect(denialWords(undefined)).toBeNull();
    expect(denialWords('hop_refused')).toBeNull();
  });
});

describe('a refusal nobody gave', () => {
  it('has plain words for each cause code and is never "refused by you"', () => {
    expect(Object.keys(CAUSE_WORDS).sort()).toEqual([...HOP_CAUSE_CODES].sort());
    expect(hopCodeWords('approval_expired')).toMatch(/expired/);
    expect(hopCodeWords('run_stopped')).toMatch(/run was stopped/);
    expect(hopCodeWords('chain_depth_exceeded')).toBe('over Maximum chain depth');
    expect(hopCodeWords(undefined)).toBeNull();
    expect(refusedByPerson({ verdict: 'refused' })).toBe(true);
    expect(refusedByPerson({ verdict: 'refused', code: 'approval_expired' })).toBe(false);
  });
});
