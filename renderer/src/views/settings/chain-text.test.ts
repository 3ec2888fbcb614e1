import { describe, it, expect } from 'vitest';
import { DENIAL_WORDS, denialWords } from './chain-text.js';
import { ORCHESTRATION_CODES } from '../../../../shared/types.js';

describe('Recent chains in words', () => {
  it('has plain words for each of the six denial codes', () => {
    expect(Object.keys(DENIAL_WORDS).sort()).toEqual([...ORCHESTRATION_CODES].sort());
    expect(denialWords('orchestration_not_entitled')).toBe('no nexus.orchestration entitlement');
    expect(denialWords('chain_depth_exceeded')).toBe('over Maximum chain depth');
    expect(denialWords(undefined)).toBeNull();
    expect(denialWords('hop_refused')).toBeNull();
  });
});
