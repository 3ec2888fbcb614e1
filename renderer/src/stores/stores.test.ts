// Store logic that needs no DOM: selection kept across refetches, coalesced refetches, events -> refetches.
import { describe, it, expect, beforeEach } from 'vitest';
import { reselect, useInbox, type InboxItem } from './inbox.js';
import { applyChange, fits } from './inbox-list.js';
import { coalesce } from './refetcher.js';
import { setApi } from '../api/client.js';
import { applyEvent } from '../events.js';
import { flushInboxChanges } from './inbox-push.js';
import { useStatus } from './status.js';
import { parseHash, cardOfHash } from './nav.js';
import type { NexusApi } from '../../../shared/api/index.js';

const item = (id: string): InboxItem => ({ id, kind: 'autonomy', agent: 'a', tool: 'bash', target: 'ls', run_id: 'r', created_at: '2026-01-01T00:00:00Z' });

describe('inbox store', () => {
  it('keeps the selected card, or moves to its neighbour when it was answered', () => {
    const prev = [item('a'), item('b'), item('c')];
    expect(reselect(prev, prev, 'b')).toBe('b');
    expect(reselect(prev, [item('a'), item('c')], 'b')).toBe('c');
    expect(reselect(prev, [item('a')], 'c')).toBe('a');
    expect(reselect(prev, [], 'a')).toBeNull();
    expect(reselect([], prev, null)).toBe('a');
  });

  let calls: string[];
  beforeEach(() => {
    calls = [];
    const items = [item('a'), item('b')];
    const api = new Proxy({} as NexusApi, {
      get: (_t, name: string) => async (input: unknown) => {
        calls.push(`${name} ${JSON.stringify(input)}`);
        if (name === 'inboxList') return { ok: true, value: items };
        if (name === 'inboxDeny') return { ok: false, error: { code: 'not_found', message: 'already answered' } };
        return { ok: true, value: { id: (input as { id: string }).id, state: 'approved' } };
      },
    });
    setApi(api);
    useInbox.setState({ items: [], selectedId: null, busy: {}, lastAnswer: null, loaded: false });
  });

  it('j/k move within the list; answering sends one call, takes the card off at once and does not refetch; errors are shown, not thrown', async () => {
    await useInbox.getState().refresh();
    expect(useInbox.getState().selectedId).toBe('a');
    useInbox.getState().move(1);
    useInbox.getState().move(1);
    expect(useInbox.getState().selectedId).toBe('b');
    useInbox.getState().move(-5);
    expect(useInbox.getState().selectedId).toBe('a');
    expect(calls).toEqual(['inboxList {"limit":200}']);
    const approving = useInbox.getState().approve('a', true);
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['b']);
    await approving;
    expect(calls).toContain('inboxApprove {"id":"a","trust_session":true}');
    expect(useInbox.getState().lastAnswer).toEqual({ id: 'a', text: 'Approved · a · bash ls', ok: true });
    await useInbox.getState().deny('b', '  not now ');
    expect(calls).toContain('inboxDeny {"id":"b","reason":"not now"}');
    expect(useInbox.getState().lastAnswer).toEqual({ id: 'b', text: 'already answered · a · bash ls', ok: false });
    // A refused answer puts the card back where it was.
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['b']);
    expect(calls.filter((c) => c.startsWith('inboxList')).length).toBe(1);
  });

  it('a plain approve sends only the card id: trust_session is left to its default (false) to keep the frame small', async () => {
    await useInbox.getState().refresh();
    await useInbox.getState().approve('b');
    expect(calls).toContain('inboxApprove {"id":"b"}');
  });

  it('an inbox_changed event without the change sets the pending count and refetches the cards', async () => {
    applyEvent({ type: 'inbox_changed', pending: 7 });
    expect(useStatus.getState().pending).toBe(7);
    await useInbox.getState().refresh();
    expect(calls.filter((c) => c.startsWith('inboxList')).length).toBeGreaterThanOrEqual(1);
  });

  it('an inbox_changed event with the change applies it in place: no request at all', async () => {
    await useInbox.getState().refresh();
    calls.length = 0;
    applyEvent({ type: 'inbox_changed', pending: 2, added: [item('c')], removed: [{ id: 'a', status: 'approved' }] });
    flushInboxChanges();
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['b', 'c']);
    expect(useInbox.getState().selectedId).toBe('b');
    applyEvent({ type: 'inbox_changed', pending: 2, added: [item('c')], removed: [] });
    flushInboxChanges();
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['b', 'c']);
    expect(calls).toEqual([]);
  });

  it('a burst of pushed answers (a bulk deny) is gathered into one store update, list and count together', async () => {
    await useInbox.getState().refresh();
    let updates = 0;
    const off = useInbox.subscribe(() => updates++);
    applyEvent({ type: 'inbox_changed', pending: 1, removed: [{ id: 'a', status: 'denied' }] });
    applyEvent({ type: 'inbox_changed', pending: 0, removed: [{ id: 'b', status: 'denied' }] });
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['a', 'b']);
    await new Promise((r) => setTimeout(r, 40));
    off();
    expect(useInbox.getState().items).toEqual([]);
    expect(useStatus.getState().pending).toBe(0);
    expect(updates).toBe(1);
  });

  it('a pushed answer after a quiet spell leaves the list at the end of its own task, without waiting a frame', async () => {
    await useInbox.getState().refresh();
    await new Promise((r) => setTimeout(r, 40)); // quiet: nothing applied for longer than a frame
    applyEvent({ type: 'inbox_changed', pending: 1, removed: [{ id: 'a', status: 'approved' }] });
    applyEvent({ type: 'inbox_changed', pending: 1, added: [item('c')] }); // the same task: applied with it
    await Promise.resolve();
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['b', 'c']);
    expect(useStatus.getState().pending).toBe(1);
    // The next change within GATHER_MS waits for it (a burst stays one update per GATHER_MS).
    applyEvent({ type: 'inbox_changed', pending: 0, removed: [{ id: 'b', status: 'approved' }] });
    await Promise.resolve();
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['b', 'c']);
    await new Promise((r) => setTimeout(r, 40));
    expect(useInbox.getState().items.map((i) => i.id)).toEqual(['c']);
  });

  it('a filtered list takes only the added cards that fit; a list with more pages leaves them to the next page', () => {
    const s = { items: [item('a')], hasMore: false };
    expect(applyChange(s, [{ ...item('b'), agent: 'other' }, item('c')], [], { agent: 'a' }).items.map((i) => i.id)).toEqual(['a', 'c']);
    expect(applyChange({ ...s, hasMore: true }, [item('c')], [{ id: 'a' }], {}).items.map((i) => i.id)).toEqual([]);
    expect(fits({ ...item('x'), target: 'echo 100%' }, { text: '100%' })).toBe(true);
    expect(fits(item('x'), { text: 'nope' })).toBe(false);
  });
});

describe('coalesced refetch', () => {
  it('runs at most one fetch at a time and one more for everything that arrived meanwhile', async () => {
    let n = 0;
    let release!: () => void;
    const refetch = coalesce(async () => {
      n++;
      await new Promise<void>((r) => (release = r));
    });
    const first = refetch();
    const burst = Promise.all([refetch(), refetch(), refetch()]);
    release();
    await new Promise((r) => setTimeout(r, 0));
    release();
    await Promise.all([first, burst]);
    expect(n).toBe(2);
  });
});

describe('navigation', () => {
  it('reads the view from the hash, and the card an inbox address names', () => {
    expect(parseHash('#/inbox/row_1')).toBe('inbox');
    expect(cardOfHash('#/inbox/row_1%2Fx')).toBe('row_1/x');
    expect(cardOfHash('#/inbox')).toBeNull();
    expect(cardOfHash('#/inbox/%E0%A4%A')).toBeNull();
    expect(parseHash('#/settings/models')).toBe('settings');
    expect(parseHash('#/nope')).toBe('inbox');
  });
});
