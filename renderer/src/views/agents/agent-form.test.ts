import { describe, it, expect } from 'vitest';
import { fieldNames, nameTaken } from './agent-form.js';

describe('the agent editor', () => {
  it('names fields by their labels in API errors (was "model.baseURL: Invalid URL")', () => {
    expect(fieldNames('name: a name is letters, digits, _ . -; model.baseURL: Invalid URL')).toBe('Name: a name is letters, digits, _ . -; Base URL: Invalid URL');
    expect(fieldNames('workspace must be an absolute path')).toBe('Workspace folder: must be an absolute path');
    expect(fieldNames('No agent "x". (not_found)')).toBe('No agent "x". (not_found)');
  });

  it('knows when a new agent would replace an existing one', () => {
    expect(nameTaken([{ name: 'scribe' }], 'scribe ')).toBe(true);
    expect(nameTaken([{ name: 'scribe' }], 'scribe2')).toBe(false);
  });
});
