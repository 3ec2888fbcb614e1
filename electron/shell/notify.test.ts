import { describe, it, expect } from 'vitest';
import { createNotifier, trayTooltip, notificationActions, outcomeOf, cardHash } from './notify.js';
import { isOwnWindow } from '../doors/ipc-sender.js';

describe('desktop shell helpers', () => {
  it('notifies once per new card, never for other events or a repeated nudge', () => {
    const notify = createNotifier();
    const e = { type: 'work_available', kind: 'orchestration', item_id: 'h1', agent: 'builder', title: 'write notes.md (hop 2)' } as const;
    expect(notify(e)).toEqual({ id: 'h1', kind: 'orchestration', title: 'Orchestration asks · builder', body: 'write notes.md (hop 2)' });
    expect(notify(e)).toBeNull();
    expect(notify({ type: 'inbox_changed', pending: 1 })).toBeNull();
    expect(notify({ ...e, item_id: 'r2', kind: 'approval', agent: null })?.title).toBe('Approval needed');
  });

  it('says the pending count and Stop all in the tray', () => {
    expect(trayTooltip(0, false)).toBe('NEXUS — nothing waiting');
    expect(trayTooltip(1, false)).toBe('NEXUS — 1 card waiting');
    expect(trayTooltip(3, true)).toBe('NEXUS — 3 cards waiting · Stop all engaged');
  });

  it('accepts IPC only from the app window main frame showing the app page', () => {
    const own = { windowId: 7, appUrl: 'file:///opt/nexus/dist/renderer/index.html' };
    const ok = { senderId: 7, frameUrl: 'file:///opt/nexus/dist/renderer/index.html#/inbox', isMainFrame: true };
    expect(isOwnWindow(ok, own)).toBe(true);
    expect(isOwnWindow({ ...ok, senderId: 8 }, own)).toBe(false);
    expect(isOwnWindow({ ...ok, isMainFrame: false }, own)).toBe(false);
    expect(isOwnWindow({ ...ok, frameUrl: 'https://evil.example/index.html' }, own)).toBe(false);
    expect(isOwnWindow({ ...ok, frameUrl: 'file:///tmp/other.html' }, own)).toBe(false);
    expect(isOwnWindow({ ...ok, frameUrl: undefined }, own)).toBe(false);
    expect(isOwnWindow(ok, { ...own, windowId: null })).toBe(false);
  });

  it('a card notification carries Approve and Deny where the platform shows buttons; Deny opens the card for a reason', () => {
    expect(notificationActions('approval', 'darwin').map((a) => a.text)).toEqual(['Approve', 'Deny…']);
    expect(notificationActions('orchestration', 'linux').map((a) => a.text)).toEqual(['Approve', 'Deny…']);
    expect(notificationActions('approval', 'win32')).toEqual([]);
    expect(notificationActions('question', 'darwin')).toEqual([]);
    expect(notificationActions('attention', 'linux')).toEqual([]);
    expect(outcomeOf('r1', 'approval', 'darwin', 0)).toEqual({ do: 'approve', id: 'r1' });
    expect(outcomeOf('r1', 'approval', 'darwin', 1)).toEqual({ do: 'open', id: 'r1' });
    expect(outcomeOf('r1', 'approval', 'darwin', null)).toEqual({ do: 'open', id: 'r1' });
    // A button index the platform did not show (or a question's card) never approves.
    expect(outcomeOf('r1', 'approval', 'win32', 0)).toEqual({ do: 'open', id: 'r1' });
    expect(outcomeOf('q1', 'question', 'darwin', 0)).toEqual({ do: 'open', id: 'q1' });
    expect(cardHash('row_1/x')).toBe('#/inbox/row_1%2Fx');
  });
});
