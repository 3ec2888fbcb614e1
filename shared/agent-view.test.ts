import { describe, expect, it } from 'vitest';
import { AgentProfileInput, AgentView } from './api/agents.js';
import { VIEW_ONLY_KEYS, profileOfView } from './agent-view.js';

describe('an agent view saved back', () => {
  it('VIEW_ONLY_KEYS are exactly the keys AgentView adds to the profile', () => {
    const added = Object.keys(AgentView.shape).filter((k) => !(k in AgentProfileInput.shape));
    expect([...VIEW_ONLY_KEYS].sort()).toEqual(added.sort());
  });

  it('profileOfView leaves a profile the strict agent schema accepts', () => {
    const view = {
      name: 'a',
      model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:1', model: 'm' },
      mode: 'ask',
      status: 'active',
      created_at: 'x',
      updated_at: 'y',
    };
    expect(AgentProfileInput.safeParse(view).success).toBe(false);
    expect(AgentProfileInput.safeParse(profileOfView(view)).error?.issues ?? []).toEqual([]);
  });
});
