// The methods marked readMethod pass the socket's peer check unnamed, so the list is held whole: marking a method
// that decides or changes something as a read would let a process below a connected client or an agent call it.
import { describe, expect, it } from 'vitest';
import { HOOK_METHODS, READ_METHODS } from './index.js';

describe('read methods', () => {
  it('are exactly the methods that decide nothing, change nothing and hand out no session', () => {
    expect([...READ_METHODS].sort()).toEqual(
      [
        'agentsGet',
        'agentsList',
        'chainsList',
        'connectionsList',
        'deskInbox',
        'deskRecord',
        'deskStatus',
        'entitlementsShow',
        'inboxContext',
        'inboxIds',
        'inboxList',
        'inboxSummary',
        'keysStatus',
        'rowsWait',
        'rulesCheck',
        'rulesEval',
        'runsEvents',
        'runsList',
        'runsRows',
        'runsShow',
        'settingsGet',
        'status',
        'tasksList',
        'tasksShow',
        'trustList',
      ].sort(),
    );
  });

  it('are never hook methods (the hook credential reaches only its own two)', () => {
    for (const m of READ_METHODS) expect(HOOK_METHODS.has(m)).toBe(false);
  });
});
