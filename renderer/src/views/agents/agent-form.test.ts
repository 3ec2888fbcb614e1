import { describe, it, expect } from 'vitest';
import { fieldNames, saveFailure } from './agent-form.js';

describe('the agent editor', () => {
  it('names fields by their labels in API errors (was "model.baseURL: Invalid URL")', () => {
    expect(fieldNames('name: a name is letters, digits, _ . -; model.baseURL: Invalid URL')).toBe('Name: a name is letters, digits, _ . -; Base URL: Invalid URL');
    expect(fieldNames('workspace must be an absolute path')).toBe('Workspace folder: must be an absolute path');
    expect(fieldNames('No agent "x". (not_found)')).toBe('No agent "x". (not_found)');
  });

  it("says what a refused create or replace means, and leaves other failures to the API's message", () => {
    expect(saveFailure('conflict', 'scribe')).toMatch(/^An agent named scribe already exists\. .*nothing was saved\.$/);
    expect(saveFailure('not_found', 'scribe')).toMatch(/^The agent scribe no longer exists .*nothing was saved/);
    expect(saveFailure('invalid_input', 'scribe')).toBeNull();
    expect(saveFailure(null, 'scribe')).toBeNull();
  });
});
