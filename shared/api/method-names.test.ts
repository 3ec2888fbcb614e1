// The zod-free list of method names is the method table's keys, exactly and in order: a method added to a
// schema module without regenerating the list would be missing from every client (preload, web bridge, CLI).
import { describe, expect, it } from 'vitest';
import { methods } from './index.js';
import { METHOD_NAMES } from './method-names.js';

describe('METHOD_NAMES', () => {
  it('is Object.keys(methods), in order, without duplicates', () => {
    expect([...METHOD_NAMES]).toEqual(Object.keys(methods));
    expect(new Set(METHOD_NAMES).size).toBe(METHOD_NAMES.length);
  });
});
