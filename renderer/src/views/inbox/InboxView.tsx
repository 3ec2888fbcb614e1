// The inbox: a queue on the left, the selected card on the right; j/k move, a approves, d denies.
import { useEffect, useState } from 'react';
import { useInbox } from '../../stores/inbox.js';
import { CardList } from './CardList.js';
import { CardDetail } from './CardDetail.js';
import { Empty } from '../../components/Empty.js';
import { useNow } from '../../components/time.js';
import { FirstRun } from '../demo/FirstRun.js';

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);

export function InboxView() {
  const { items, loaded, error, selectedId, lastAnswer } = useInbox();
  const now = useNow();
  const [reason, setReason] = useState('');
  const selected = items.find((i) => i.id === selectedId) ?? null;

  useEffect(() => setReason(''), [selectedId]);
  useEffect(() => {
    if (!lastAnswer) return;
    const t = setTimeout(() => useInbox.setState({ lastAnswer: null }), 2600);
    return () => clearTimeout(t);
  }, [lastAnswer]);
  useEffect(() => {
    // Marks the first paint with cards (requestAnimationFrame runs before the frame is painted; the
    // timeout after it lands just after). bench/window.bench.ts reads it.
    if (!loaded || !items.length || performance.getEntriesByName('nexus:inbox-painted').length) return;
    requestAnimationFrame(() => setTimeout(() => performance.mark('nexus:inbox-painted'), 0));
  }, [loaded, items.length]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target) || document.querySelector('[aria-modal="true"]')) return;
      const s = useInbox.getState();
      const item = s.items.find((i) => i.id === s.selectedId);
      if (e.key === 'j' || e.key === 'ArrowDown') s.move(1);
      else if (e.key === 'k' || e.key === 'ArrowUp') s.move(-1);
      else if (e.key === 'a' && item && (item.kind === 'autonomy' || item.kind === 'orchestration')) void s.approve(item.id);
      else if (e.key === 'd' && item && (item.kind === 'autonomy' || item.kind === 'orchestration')) void s.deny(item.id, reason);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [reason]);

  if (!loaded) return <div className="loading">Loading the inbox…</div>;
  return (
    <div className="inbox">
      {error ? <div className="banner error" role="alert">{error}</div> : null}
      {items.length === 0 ? (
        <div className="inbox-empty">
          {/* A newcomer reads the welcome (and the demo) first, then what the Inbox is for. */}
          <FirstRun />
          <Empty title="Nothing waits for you" icon="✓">
            <p>
              An <strong>approval card</strong> appears here when an agent wants to make a tool call that someone must allow first. Two
              things can ask: the agent's own <strong>autonomy mode</strong> (in <em>ask</em> mode every call parks unless a rule allows it;
              in <em>rules</em> mode an <code>ask</code> rule parks it), or <strong>orchestration</strong>, which holds each governed hop of a
              chain of agents while Per-hop approval is on.
            </p>
            <p>
              A parked call waits up to 24 hours. Approve it and the run goes on; deny it and the agent reads your reason. Keys: <kbd>j</kbd>/
              <kbd>k</kbd> move, <kbd>a</kbd> approves, <kbd>d</kbd> denies.
            </p>
          </Empty>
        </div>
      ) : (
        <div className="inbox-split">
          <aside className="inbox-queue">
            <div className="queue-head">
              <h1>Inbox</h1>
              <span className="muted" data-testid="queue-count">
                {items.length} waiting · <kbd>j</kbd>/<kbd>k</kbd> <kbd>a</kbd>/<kbd>d</kbd>
              </span>
            </div>
            <CardList items={items} selectedId={selectedId} now={now} />
          </aside>
          <section className="inbox-detail" aria-label="Selected card">
            {selected ? <CardDetail key={selected.id} item={selected} reason={reason} setReason={setReason} now={now} /> : null}
          </section>
        </div>
      )}
      {lastAnswer ? (
        <div className={`toast ${lastAnswer.ok ? '' : 'error'}`} role="status" key={`${lastAnswer.id}-${lastAnswer.text}`}>
          {lastAnswer.text}
        </div>
      ) : null}
    </div>
  );
}
