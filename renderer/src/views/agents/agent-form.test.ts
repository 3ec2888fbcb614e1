import { describe, it, expect } from 'vitest';
import { formErrors, saveFailure } from './agent-form.js';

describe('the agent editor', () => {
  it('puts each problem of a refused save next to its field, and names fields by their labels in the summary', () => {
    const e = formErrors('name: a name is …; model.baseURL: Invalid URL; approval_rules.1.verdict: rule 1: …', [
      { path: 'name', message: 'a name is letters, digits, _ . -' },
      { path: 'model.baseURL', message: 'Invalid URL' },
      { path: 'approval_rules.1.verdict', message: 'rule 1: verdict must be allow, ask or deny (got "maybe")' },
      { path: 'network.allow.0', message: 'a host name such as api.github.com' },
      { path: 'network.allow.1', message: 'a host name such as api.github.com' },
      { path: 'lifecycle_hooks.stop.0.tool', message: 'a hook names a tool' },
    ]);
    expect(e.fields).toEqual({
      name: 'a name is letters, digits, _ . -',
      baseURL: 'Invalid URL',
      rules: 'rule 1: verdict must be allow, ask or deny (got "maybe")',
      network: 'a host name such as api.github.com; a host name such as api.github.com',
    });
    // A path the form has no field for keeps its path: the person still learns what is wrong.
    expect(e.summary).toBe(
      'Name: a name is letters, digits, _ . -; Base URL: Invalid URL; Rules: rule 1: verdict must be allow, ask or deny (got "maybe"); Network: a host name such as api.github.com; Network: a host name such as api.github.com; lifecycle_hooks.stop.0.tool: a hook names a tool',
    );
    // A prefix names a whole key, never part of one: "names" is not "name".
    expect(formErrors('x', [{ path: 'names', message: 'm' }]).fields).toEqual({});
  });

  it('a refusal without details is shown as its message', () => {
    expect(formErrors('No agent "x".', undefined)).toEqual({ fields: {}, summary: 'No agent "x".' });
    expect(formErrors('workspace must be an absolute path', [{ path: 'workspace', message: 'must be an absolute path' }])).toEqual({
      fields: { workspace: 'must be an absolute path' },
      summary: 'Workspace folder: must be an absolute path',
    });
  });

  it("says what a refused create or replace means, and leaves other failures to the API's message", () => {
    expect(saveFailure('conflict', 'scribe')).toMatch(/^An agent named scribe already exists\. .*nothing was saved\.$/);
    expect(saveFailure('not_found', 'scribe')).toMatch(/^The agent scribe no longer exists .*nothing was saved/);
    expect(saveFailure('invalid_input', 'scribe')).toBeNull();
    expect(saveFailure(null, 'scribe')).toBeNull();
  });
});
