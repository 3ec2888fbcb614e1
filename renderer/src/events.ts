// Kernel events -> store refetches. Nothing polls: every change reaches the window as a pushed event.
import type { NexusApi, NexusEvent } from '../../shared/api/index.js';
import { useInbox } from './stores/inbox.js';
import { useStatus } from './stores/status.js';
import { useOrchestration } from './stores/orchestration.js';
import { useAgents } from './stores/agents.js';
import { useGrants } from './stores/grants.js';
import { useRuns } from './stores/runs.js';
import { useNav } from './stores/nav.js';
import { flushInboxChanges, queueInboxChange } from './stores/inbox-push.js';
import { useDesk } from './stores/desk.js';

export function applyEvent(e: NexusEvent): void {
  switch (e.type) {
    case 'inbox_changed':
      // The change itself when the kernel names it (gathered, applied once per GATHER_MS at most); a refetch when it does not.
      if (e.added || e.removed) queueInboxChange(e.pending, e.added ?? [], e.removed ?? []);
      else {
        flushInboxChanges();
        useStatus.getState().setPending(e.pending);
        void useInbox.getState().refresh();
      }
      break;
    case 'work_available':
      break; // always followed by the inbox_changed that carries the card
    case 'run_event': {
      // The runs list refetches only while it is on screen; opening the view refetches it (RunsView).
      const runs = useRuns.getState();
      if (useNav.getState().view === 'runs') void runs.refresh();
      else runs.markStale();
      if (runs.openId === e.run_id) void runs.refreshDetail();
      break;
    }
    case 'runs_changed': {
      void useRuns.getState().refresh();
      void useRuns.getState().refreshDetail();
      void useStatus.getState().refresh();
      break;
    }
    case 'agents_changed':
      void useAgents.getState().refresh();
      // Only once a view has read the grants (Settings ▸ Grants, the tester): the first paint never waits on them.
      if (useGrants.getState().loaded) void useGrants.getState().refresh();
      break;
    case 'settings_changed':
      void useOrchestration.getState().refreshSettings();
      void useStatus.getState().refresh();
      break;
    case 'chains_changed':
      void useOrchestration.getState().refreshChains();
      break;
    case 'desk_changed':
      void useDesk.getState().refresh();
      break;
  }
}

export function refreshAll(): void {
  // The inbox and the top bar first: they are what the window paints first; the rest follow in the same tick.
  void useStatus.getState().refresh();
  void useInbox.getState().refresh();
  void useOrchestration.getState().refreshSettings();
  void useOrchestration.getState().refreshChains();
  void useAgents.getState().refresh();
  if (useGrants.getState().loaded) void useGrants.getState().refresh();
  void useRuns.getState().refresh();
  void useRuns.getState().refreshDetail();
  void useDesk.getState().refresh();
}

type Connection = 'connecting' | 'open' | 'closed' | 'locked';

/** Subscribe the stores to the kernel; on (re)connection refetch everything (events may have been missed). */
export function connectStores(api: NexusApi & { onConnection?: (l: (s: Connection) => void) => () => void; connectionState?: () => Connection }): () => void {
  const offEvent = api.onEvent(applyEvent);
  // The first fetch below is queued until the socket opens, so the first 'open' needs no second one (it used
  // to fetch everything twice at start, 1,000 cards included). After a drop, a reopen refetches.
  let dropped = false;
  const offConn = api.onConnection?.((state) => {
    useStatus.getState().setConnection(state);
    if (state === 'closed') dropped = true;
    if (state === 'open' && dropped) {
      dropped = false;
      refreshAll();
    }
  });
  useStatus.getState().setConnection(api.onConnection ? (api.connectionState?.() ?? 'connecting') : 'open');
  refreshAll();
  return () => {
    offEvent();
    offConn?.();
  };
}
