// The inbox: a queue on the left, the selected card on the right; j/k move, a approves, d denies. After an
// answer, focus moves to the next card; a call flagged dangerous asks for a second confirm first.
import { useCallback, useEffect, useState } from 'react';
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import type { Trust } from '../../stores/inbox-state.js';
import { CardList } from './CardList.js';
import { CardDetail } from './CardDetail.js';
import { InboxToolbar } from './InboxToolbar.js';
import { Empty } from '../../components/Empty.js';
import { useNow } from '../../components/time.js';
import { FirstRun } from '../demo/FirstRun.js';
import { useBulkAsk } from './bulk-ask.js';
import { undoAnswer, useGrace } from '../../stores/answer-grace.js';
import { ShortcutsDialog } from './ShortcutsDialog.js';
import { classifyDanger, type DangerFinding } from '../../../../shared/inbox/danger.js';
import { cardLabel } from '../../stores/inbox-list.js';
import { cardOfHash } from '../../stores/nav.js';
import { useDesk } from '../../stores/desk.js';
import { DeskGroups, LocalMachineLine } from './DeskGroups.js';
import { DangerConfirm } from './DangerConfirm.js';
import type { EffectProfile } from '../../../../shared/types.js';

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
const answerable = (i: InboxItem | undefined): i is InboxItem => Boolean(i && (i.kind === 'autonomy' || i.kind === 'orchestration'));

export function InboxView() {
  const { items, loaded, error, selectedId, lastAnswer, answered, filter } = useInbox();
  const now = useNow();
  const [reason, setReason] = useState('');
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);
  const held = useGrace((g) => g.held);
  const holding = held.at(-1);
  const graceSeconds = holding ? Math.max(1, Math.round((holding.until - Date.now()) / 1000)) : 0;
  const [danger, setDanger] = useState<{ item: InboxItem; trust: Trust; findings: DangerFinding[] } | null>(null);
  const selected = items.find((i) => i.id === selectedId) ?? null;
  const filteredView = Object.values(filter).some((v) => v !== undefined && v !== '');
  // At a desk, other machines' cards keep the queue on screen even when none of this machine's waits.
  const deskWaiting = useDesk((d) => d.cards.length > 0);

  /** Approve, or first ask again when the call is one the classifier flags. */
  const requestApprove = useCallback((item: InboxItem, trust: Trust = false) => {
    const effect = item.effect as Partial<EffectProfile> | undefined;
    const findings = classifyDanger(item.tool, effect?.input, effect?.workspace);
    if (findings.length) setDanger({ item, trust, findings });
    else void useInbox.getState().approve(item.id, trust);
  }, []);

  useEffect(() => setReason(''), [selectedId]);
  useEffect(() => {
    // `#/inbox/<id>` selects that card once it is listed, and puts focus on it.
    const pick = () => {
      const id = cardOfHash(location.hash);
      if (!id || !useInbox.getState().items.some((i) => i.id === id)) return;
      useInbox.getState().select(id);
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.inbox-detail .card-title')?.focus());
    };
    pick();
    window.addEventListener('hashchange', pick);
    return () => window.removeEventListener('hashchange', pick);
  }, [loaded]);
  useEffect(() => {
    // The toast names its card and leaves soon: it must not read as being about the next card.
    if (!lastAnswer) return;
    const t = setTimeout(() => useInbox.setState({ lastAnswer: null }), 1800);
    return () => clearTimeout(t);
  }, [lastAnswer]);
  useEffect(() => {
    // After an answer, focus goes to the next card (its title), or to the empty view's heading: never <body>.
    if (!answered) return;
    requestAnimationFrame(() => {
      if (document.querySelector('[aria-modal="true"]')) return;
      const a = document.activeElement;
      if (a && a !== document.body && a.isConnected && typing(a)) return;
      (document.querySelector<HTMLElement>('.inbox-detail .card-title') ?? document.querySelector<HTMLElement>('.inbox h1'))?.focus();
    });
  }, [answered, selectedId]);
  useEffect(() => {
    // Marks the first paint with cards (requestAnimationFrame runs before the frame is painted; the
    // timeout after it lands just after). bench/window.bench.ts reads it.
    if (!loaded || !items.length || performance.getEntriesByName('nexus:inbox-painted').length) return;
    requestAnimationFrame(() => setTimeout(() => performance.mark('nexus:inbox-painted'), 0));
  }, [loaded, items.length]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && typing(e.target) && e.target instanceof HTMLElement && e.target.closest('.inbox-detail')) {
        // Esc leaves the reason box: back to the card, whose keys work again.
        e.preventDefault();
        document.querySelector<HTMLElement>('.inbox-detail .card-title')?.focus();
        return;
      }
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target) || document.querySelector('[aria-modal="true"]')) return;
      const s = useInbox.getState();
      const item = s.items.find((i) => i.id === s.selectedId);
      // With cards checked, a and d answer the selection (after its confirm), never just the focused card.
      const bulk = Object.keys(s.checked).length > 0;
      if (e.key === 'j' || e.key === 'ArrowDown') s.move(1);
      else if (e.key === 'k' || e.key === 'ArrowUp') s.move(-1);
      else if (e.key === '?') setHelp(true);
      else if (e.key === 'u' && useGrace.getState().held.length) undoAnswer();
      else if ((e.key === 'a' || e.key === 'd') && bulk) useBulkAsk.getState().ask(e.key === 'a' ? 'approve' : 'deny');
      else if (e.key === 'a' && answerable(item)) requestApprove(item);
      else if (e.key === 'd' && answerable(item)) void s.deny(item.id, reason);
      else if (e.key === 'x' && answerable(item)) s.check(item.id, !s.checked[item.id]);
      else if (e.key === 'r' && answerable(item)) document.querySelector<HTMLElement>('.inbox-detail input[aria-label^="Reason"]')?.focus();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [reason, requestApprove]);

  if (!loaded) return <div className="loading">Loading the inbox…</div>;
  const toast = holding ? (
    <div className="toast held" role="status" key={`held-${holding.id}`}>
      {holding.text} · sending in {graceSeconds} s{held.length > 1 ? ` (${held.length} held)` : ''}{' '}
      <button type="button" className="btn small" aria-keyshortcuts="u" onClick={() => undoAnswer(holding.id)}>
        Undo
      </button>
    </div>
  ) : lastAnswer ? (
    <div className={`toast ${lastAnswer.ok ? '' : 'error'}`} role="status" key={`${lastAnswer.id}-${lastAnswer.text}`}>
      {lastAnswer.text}
    </div>
  ) : null;
  return (
    <div className="inbox">
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      {items.length === 0 && !filteredView && !deskWaiting ? (
        <div className="inbox-empty" tabIndex={0} role="region" aria-label="Welcome">
          <h1 className="sr-only" tabIndex={-1}>
            Inbox
          </h1>
          {/* A newcomer reads the welcome (and the demo) first, then what the Inbox is for. */}
          <FirstRun />
          <Empty title="Nothing waits for you" icon="✓">
            <p>
              An <strong>approval card</strong> appears here when an agent wants to make a tool call that someone must allow first. Two things can ask: the
              agent's own <strong>autonomy mode</strong> (in <em>ask</em> mode every call parks unless a rule allows it; in <em>rules</em> mode an{' '}
              <code>ask</code> rule parks it), or <strong>orchestration</strong>, which holds each governed hop of a chain of agents while Per-hop approval is
              on.
            </p>
            <p>
              A parked call waits up to 24 hours. Approve it and the run goes on; deny it and the agent reads your reason. Keys: <kbd>j</kbd>/<kbd>k</kbd> move,{' '}
              <kbd>a</kbd> approves, <kbd>d</kbd> denies, <kbd>x</kbd> selects for a bulk answer (then <kbd>a</kbd>/<kbd>d</kbd> answer the selection),{' '}
              <kbd>?</kbd> lists them all.
            </p>
          </Empty>
          {toast}
        </div>
      ) : (
        <div className="inbox-split">
          <aside className="inbox-queue" aria-label="Queue">
            <div className="queue-head">
              <h1 tabIndex={-1}>Inbox</h1>
              <span className="muted" data-testid="queue-count">
                {items.length} {useInbox.getState().hasMore ? 'shown' : 'waiting'} · <kbd>j</kbd>/<kbd>k</kbd> <kbd>a</kbd>/<kbd>d</kbd> <kbd>x</kbd>{' '}
              </span>
              <button type="button" className="link small" onClick={() => setHelp(true)} aria-keyshortcuts="?">
                Shortcuts <kbd>?</kbd>
              </button>
            </div>
            <LocalMachineLine />
            <InboxToolbar />
            {toast}
            {items.length ? (
              <CardList items={items} selectedId={selectedId} now={now} />
            ) : !filteredView ? (
              <div className="empty-inline">
                <p className="muted">No card of this machine waits.</p>
              </div>
            ) : (
              <div className="empty-inline">
                <p className="muted">No pending card matches this filter.</p>
                <button type="button" className="btn small" onClick={() => useInbox.getState().setFilter({})}>
                  Clear filters and show all cards
                </button>
              </div>
            )}
            <DeskGroups now={now} />
          </aside>
          <section className="inbox-detail" aria-label="Selected card" tabIndex={0}>
            {selected ? <CardDetail key={selected.id} item={selected} reason={reason} setReason={setReason} now={now} onApprove={requestApprove} /> : null}
          </section>
        </div>
      )}
      {help ? <ShortcutsDialog onClose={closeHelp} /> : null}
      {danger ? (
        <DangerConfirm
          call={cardLabel(danger.item)}
          findings={danger.findings}
          backTo="to the card"
          onConfirm={() => {
            const d = danger;
            setDanger(null);
            void useInbox.getState().approve(d.item.id, d.trust);
          }}
          onCancel={() => setDanger(null)}
        />
      ) : null}
    </div>
  );
}
